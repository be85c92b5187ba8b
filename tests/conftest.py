"""Shared pytest fixtures."""

import pytest


@pytest.fixture(autouse=True)
def _no_idle_workers_between_tests():
    """Worker processes kept after a test's run hold the judge's code as it was when they
    were forked: a later test that patches it must not be answered by them."""
    yield
    from ragnotebook import _workers

    _workers.close_idle()


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


def pytest_sessionfinish(session, exitstatus):
    """Finalise what the tests left behind while the interpreter is still whole.

    litellm's background logging worker leaves a coroutine waiting on a queue of
    each event loop it ran on; the tests close many loops. Collected at interpreter
    shutdown, those coroutines crashed CPython 3.11 (a segfault after all tests had
    passed); collecting them here, with every module still alive, is harmless.
    """
    import gc
    import sys
    import warnings

    logging_worker = sys.modules.get("litellm.litellm_core_utils.logging_worker")
    worker = getattr(logging_worker, "GLOBAL_LOGGING_WORKER", None)
    # litellm's queued success callbacks of closed loops are dropped unawaited, on purpose
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "coroutine .* was never awaited", RuntimeWarning)
        if worker is not None:
            # drop the worker's references to tasks of loops the tests have closed
            names = ("_worker_task", "_queue", "_sem", "_bound_loop", "_timeout_summary_task")
            for name in names:
                if hasattr(worker, name):
                    setattr(worker, name, None)
            containers = ("_running_tasks", "_overflow_tasks", "_dequeued_tasks")
            for name in (*containers, "_pending_enqueues"):
                container = getattr(worker, name, None)
                if hasattr(container, "clear"):
                    container.clear()
        gc.collect()
