"""Shared pytest fixtures."""

import pytest


@pytest.fixture(autouse=True, scope="session")
def _private_judge_cache(tmp_path_factory):
    """Keep the judge cache of every test run out of the user's cache folder."""
    mp = pytest.MonkeyPatch()
    mp.setenv("RAGNOTEBOOK_CACHE", str(tmp_path_factory.mktemp("cache") / "judge_cache.sqlite3"))
    mp.setenv("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    yield
    mp.undo()


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
