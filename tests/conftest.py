"""Shared pytest fixtures."""

import pytest


@pytest.fixture
def llm_server():
    """A started local OpenAI-compatible test server (see ``tests/llm_server.py``).

    Function-scoped: each test gets a fresh server with default settings, stopped
    afterwards. Point litellm at it with ``api_base=llm_server.url``.
    """
    try:
        from llm_server import LLMServer
    except ImportError:  # tests/ imported as a package
        from tests.llm_server import LLMServer

    server = LLMServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()
