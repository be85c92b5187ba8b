"""The three scorers as pure plans (no I/O), plus the seeds' scorer objects."""
