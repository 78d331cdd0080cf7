"""Where a race's tasks run: this process, a local process pool, or a Dask cluster.

Each executor takes tasks (a group of candidates, a range of run indices, and the deck the group
changes, compiled once a step: `tune.build`) and yields their
results (`work(*task)`: tune's `work.play_task`, or another race's own, such as `impact`'s) in the order it was given them, whatever order the workers finish in, so the merged
integers (and every decision taken on them) do not depend on the executor or on the number of
workers. It takes the tasks from an iterator as it needs them, a few ahead of the workers, and
keeps none it has played: a worker compiles a group of candidates when its task comes, so a
look holds the groups in play, not the whole pool. Dask (`sengoku[cluster]`) is imported only when a cluster is asked for.
"""

from __future__ import annotations

import os
import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import Any

from sengoku.errors import DataError
from sengoku.goldfish.options import PlayOptions, within_cores
from sengoku.goldfish.play import pool
from sengoku.goldfish.play.pairs import PairPlan
from sengoku.goldfish.play.simulate import processes_for
from sengoku.tune.build import Base, BaseFiles, Group
from sengoku.tune.work import play_task

Task = tuple[PairPlan | Group | Any, int, int, Base | None]  # (group, first run, end run, the deck it changes)
Work = Callable[..., Any]  # plays a task: work(group, start, stop, base) -> its result (tune's `play_task` by default)
CLUSTER_EXTRA = "pip install 'sengoku[cluster]'"
# A LocalCluster's processes share this machine's cores with the games: none of them samples its own stacks
# every 10 ms for a dashboard that is not served (measured: about 7% of each worker's CPU beside its games),
# and their diagnostics (an event loop's responsiveness, the system's load for the dashboard's charts) are
# taken every 2 s, not fifty times a second (an idle LocalCluster of 2: its client process, with the scheduler and
# the nannies, 1.4% of a core with a tick every 200 ms, 0.8% every 2 s; each worker 0.7%, 0.35%). Nor does the scheduler look for tasks to steal every second (the
# executor keeps at most two tasks a worker thread out, and sends the next as soon as any finishes) or for
# replicas to drop every 2 s (the deck being changed is on every worker on purpose, and results are a few
# integers), and a worker's memory is read once a second, not ten times (a tune's workers hold a deck and a
# group: their memory does not climb within a second). With the client taking results from the workers
# themselves (not through the scheduler), Dask's CPU beside the games went from 8.4-10.9% of the games' CPU
# to 7.0-8.3% in four alternating pairs of runs on 2 cores (`benchmarks/tune_scale_bench.py`'s tasks).
LOCAL_CONFIG = {"distributed.worker.profile.enabled": False, "distributed.admin.tick.interval": "2s",
                "distributed.admin.system-monitor.interval": "2s", "distributed.scheduler.work-stealing": False,
                "distributed.scheduler.active-memory-manager.start": False,
                "distributed.worker.memory.monitor-interval": "1s"}
# Without a dashboard a scheduler still serves a few HTTP routes (health, metrics), by default on port 8787 of
# its host: with another Dask on this machine (another tune, a test session) that port is taken, and the
# scheduler warned "Port 8787 is already in use" before taking another. A port of the system's choosing, on
# loopback as the scheduler itself, is never taken.
LOCAL_SCHEDULER = {"dashboard_address": "127.0.0.1:0"}
BUNDLE = 4  # tasks a Dask task plays, away from the end of a run (`DaskCluster.run`)


class InProcess:
    """Run every task here, one after the other (--jobs 1)."""

    workers = 1
    describe = "1 process"

    def run(self, tasks: Iterable[Task], work: Work = play_task) -> Iterator[Any]:
        for task in tasks:
            yield work(*task)

    def close(self, quietly: bool = False) -> None:
        pass


def _play(work: Work, task: Task) -> Any:
    return work(*task)


class ProcessPool:
    """`jobs` local worker processes (goldfish's own pool), started once for the whole tune."""

    def __init__(self, jobs: int) -> None:
        self._pool = pool.ProcessPool(jobs)
        self._bases = BaseFiles()
        self.workers = jobs
        self.describe = f"{jobs} local processes"

    def run(self, tasks: Iterable[Task], work: Work = play_task) -> Iterator[Any]:
        # imap keeps the order of the tasks; its feeder thread takes the next task only when the pipe
        # to the workers has room for it, so the tasks (and their groups) are made as the workers need
        # them. The deck they change goes by a file, written once a step, not in every task.
        yield from self._pool.imap(partial(_play, work), ((g, a, b, base if base is None else self._bases.ship(base))
                                           for g, a, b, base in tasks))

    def close(self, quietly: bool = False) -> None:
        self._pool.close(quietly)
        self._bases.close()


class DaskCluster:
    """Tasks on a Dask cluster: a running scheduler (tcp://HOST:PORT) or a LocalCluster (local:N)."""

    def __init__(self, address: str) -> None:
        try:
            # deferred: an optional extra, needed only with --cluster
            import dask
            from dask.distributed import Client, LocalCluster
        except ImportError:
            raise DataError("--cluster", f"needs Dask's distributed scheduler, the optional cluster extra: "
                            f"{CLUSTER_EXTRA}") from None
        self._cluster: Any = None
        self.note: str | None = None
        if address.startswith("local:"):
            workers, self.note = local_workers(address.split(":", 1)[1])
            # Its worker processes start with Ctrl-C ignored (they inherit that): Ctrl-C reaches the whole
            # process group, and a worker must not print its traceback; this process stops them.
            # Its workers log errors only (they read this when they start): a stopped tune cancels their
            # tasks, and each cancelled task is otherwise a warning on the terminal.
            os.environ.setdefault("DASK_LOGGING__DISTRIBUTED", "error")
            previous = _ignore_ctrl_c()
            try:
                with dask.config.set(LOCAL_CONFIG):  # read by the scheduler, the client and (through their nannies) the workers
                    self._cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                                 host="127.0.0.1", dashboard_address=None,
                                                 scheduler_kwargs=LOCAL_SCHEDULER)
                    self._client = Client(self._cluster, direct_to_workers=True)  # the workers are on this machine
                from sengoku.tune.dask_setup import FrozenHeap  # deferred: imports Dask's distributed

                self._client.register_plugin(FrozenHeap())  # the workers' heaps frozen, as the local pool's are
            finally:
                _restore_ctrl_c(previous)
        else:
            self._client = _scheduler_client(Client, address)
        self.address = address
        self.sent = 0  # Dask tasks sent, each one or `BUNDLE` tasks
        self.workers = max(1, sum(w.get("nthreads", 1) for w in
                                  self._client.scheduler_info().get("workers", {}).values()))
        self.describe = f"Dask cluster {address} ({self.workers} worker threads)"

    @property
    def client(self) -> Any:
        return self._client

    def run(self, tasks: Iterable[Task], work: Work = play_task) -> Iterator[Any]:
        """Keep two Dask tasks a worker thread out (one playing, one waiting for it); yield results in task order.

        A new Dask task goes out as soon as any running one finishes, not when the oldest does:
        results wait here for their turn (a few integers each), so a worker that finished its tasks
        gets more while a slower one is still on the oldest, as a local pool's workers take the next
        task when they are free; and no worker holds more than the next Dask task in its queue, which
        a faster worker would then wait for. Away from the end of `tasks`, a Dask task plays `BUNDLE`
        of them one after the other (each as it would alone): every Dask task costs the client, the
        scheduler and the worker a few milliseconds of messages, a tenth of a first look's task. The
        last `2 * BUNDLE` a worker thread go one by one, so that the run ends on single tasks spread
        over the free workers, not on one worker's bundle. The deck being changed goes to every
        worker once a step (`scatter`); a task carries its group itself (its changes: a few hundred
        bytes), so where it runs is the scheduler's choice alone, not where a scattered group
        happened to land.
        """
        from dask.distributed import wait  # deferred: the optional extra, imported by __init__ already

        running_most = 2 * self.workers
        waiting_most = 8 * self.workers + 8  # Dask tasks finished or running, not yet yielded: their results are small
        single_end = running_most * BUNDLE  # the tasks at the end that go one by one
        futures: deque[Any] = deque()  # in task order, not yet yielded
        base_token, base_future = None, None
        pending = iter(tasks)
        ahead: deque[Task] = deque()  # taken from `pending`, not yet sent: a bundle and the single end behind it
        try:
            while True:
                running = [f for f in futures if not f.done()]
                while len(running) < running_most and len(futures) < waiting_most:
                    while len(ahead) < BUNDLE + single_end and (task := next(pending, None)) is not None:
                        ahead.append(task)
                    if not ahead:
                        break
                    base = ahead[0][3]
                    size = BUNDLE if len(ahead) >= BUNDLE + single_end else 1
                    parts: list[tuple[Any, int, int]] = []
                    while ahead and len(parts) < size and ahead[0][3] is base:  # one deck being changed a Dask task
                        group, a, b, _ = ahead.popleft()
                        parts.append((group, a, b))
                    if base is not None and base.token != base_token:  # the deck being changed: once a step, to every worker
                        base_token, base_future = base.token, self._client.scatter(base, broadcast=True, hash=False)
                    future = self._client.submit(_play_bundle, work, parts, base_future if base is not None else None,
                                                 pure=False)
                    self.sent += 1
                    futures.append(future)
                    running.append(future)
                while futures and futures[0].done():
                    yield from futures.popleft().result()  # in task order: the merge does not depend on who finished first
                if not futures:
                    if not ahead:
                        return
                    continue
                wait(running or [futures[0]], return_when="FIRST_COMPLETED")
        finally:
            self._client.cancel(list(futures))

    def close(self, quietly: bool = False) -> None:
        """Close the client (and a LocalCluster); `quietly` after a stop signal: the cluster's shutdown
        (cancelled tasks, closed streams, workers ended) is what was asked for, so none of its log lines
        and tracebacks are printed."""
        if quietly:
            _quiet_logs()
            if self._cluster is not None:
                # ... nor any of a LocalCluster's worker processes: on a loaded machine a worker's heartbeat
                # can meet the scheduler already closing, and it logs that as an error with a traceback
                try:
                    self._client.run(_quiet_logs)
                except Exception:  # noqa: BLE001 - a worker already gone has nothing left to print
                    pass
        self._client.close()
        if self._cluster is not None:
            self._cluster.close()


def _play_bundle(work: Work, parts: list[tuple[Any, int, int]], base: Base | None) -> list[Any]:
    """Play tasks (group, first run, end run) of one deck being changed, one after the other, on a Dask worker."""
    return [work(group, a, b, base) for group, a, b in parts]


def _quiet_logs() -> None:
    """Silence Dask's logs (and those of the libraries under it) in this process."""
    import logging  # deferred: only a stopped cluster run needs it

    for name in ("distributed", "tornado", "asyncio"):
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)


def _ignore_ctrl_c() -> object:
    try:
        return signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread: leave signals alone
        return None


def _restore_ctrl_c(previous: object) -> None:
    if previous is not None:
        signal.signal(signal.SIGINT, previous)  # type: ignore[arg-type]


def _scheduler_client(client: Any, address: str) -> Any:
    """Return Dask's client of the scheduler at `address`, once it greeted as one (`tune.scheduler`)."""
    from sengoku.tune.scheduler import check_scheduler, connect_timeout  # deferred: imports Dask, only for tcp://

    check_scheduler(address)
    try:
        connected = client(address, timeout=connect_timeout())
    except Exception as exc:  # noqa: BLE001 - whatever Dask's client says, the scheduler is unusable
        raise DataError("--cluster", f"the Dask scheduler at {address} greeted but then failed: "
                        f"{type(exc).__name__}: {str(exc)[:200]}") from None
    if connected.scheduler_info().get("type") != "Scheduler":
        connected.close()
        raise DataError("--cluster", f"{address} is a Dask process but not a scheduler (a worker's port?)")
    return connected


def local_workers(count: str) -> tuple[int, str | None]:
    """Return the worker processes of `--cluster local:COUNT`, and a note when that is fewer than asked.

    A LocalCluster's workers are processes of this machine, each playing one task at a time, as
    `--jobs` processes do: more than the cores this process may use only queue for them (a
    billion exhausted the machine's memory), and the tune's path does not depend on their number.
    So, as `--jobs`, local:N uses at most that many, saying so.
    """
    text = count.strip()
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise DataError("--cluster", f"local:N needs a number of workers N of at least 1, not {count!r}")
    return within_cores(int(text), f"--cluster local:{int(text)}")


def open_executor(options: PlayOptions, cluster: str | None = None, games: int = 0) -> InProcess | ProcessPool | DaskCluster:
    """Return the executor for a tune's options (`options.jobs`) or `cluster` (a Dask cluster's address).

    The local pool is started once for the whole tune, sized by the most `games` the tune may play
    (`Tuner.most_games`): at most one process per `MIN_RUNS_PER_JOB` games, and one a core.
    """
    if cluster is not None:
        return DaskCluster(cluster)
    jobs = processes_for(options.workers, games)
    return ProcessPool(jobs) if jobs > 1 else InProcess()
