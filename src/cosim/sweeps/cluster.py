"""Where the runs go: a local Dask cluster (processes of one thread) or a scheduler's address.

Input: a worker count, or a ``tcp://host:port`` address or a ``distributed.Client``.
Output: a connected client (``connect``; ``local_cluster`` starts the local one), and the
target packed for workers that do not share this machine's files (``system_files``).
``require_extras`` says how to install what is missing.
"""
from __future__ import annotations

import contextlib
import io
import logging
import os
import signal
import threading
import zipfile
from pathlib import Path

from cosim.sweeps.spec import SweepError

INSTALL = "pip install 'cosim[sweep]'"
CONNECT_SECONDS = 30      # to reach a scheduler
WORKER_WAIT_SECONDS = 60  # for a scheduler's first worker
MAX_PACKED_BYTES = 1 << 30
# The scheduler of a local cluster. allowed-failures 0: a batch whose worker died is not run
# again as it was (an FMU that crashed would crash again) but run by run (execute._lost).
# worker-saturation inf: a worker holds its next batch and starts it without waiting for the
# scheduler (queuing on the scheduler costs a round trip between batches).
LOCAL_CONFIG = {"distributed.scheduler.allowed-failures": 0,
                "distributed.scheduler.worker-saturation": float("inf")}


def require_extras(parquet: bool) -> None:
    """``SweepError`` naming the missing module and the install command."""
    modules = ("distributed", "pyarrow") if parquet else ("distributed",)
    for module in modules:
        try:
            __import__(module)
        except ImportError:
            raise SweepError(f"sweeps need dask.distributed and pyarrow ('{module}' is not "
                             f"installed): {INSTALL}") from None


def default_workers() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else \
        (os.cpu_count() or 1)


@contextlib.contextmanager
def connect(workers: int | None, scheduler):
    """Yields ``(client, local)``: ``local`` when this call started the cluster, so that the
    workers share this machine's files. A client given as ``scheduler`` is used as is."""
    from distributed import Client

    if scheduler is not None and not isinstance(scheduler, str):
        yield scheduler, False
        return
    if scheduler is not None:
        if workers is not None:
            raise SweepError("give either a number of workers or a scheduler, not both",
                             "--workers")
        try:
            client = Client(scheduler, timeout=CONNECT_SECONDS)
        except (OSError, TimeoutError, ValueError) as error:
            raise SweepError(f"cannot reach the Dask scheduler: {error}", scheduler) from None
        with contextlib.closing(client):
            try:
                client.wait_for_workers(1, timeout=WORKER_WAIT_SECONDS)
            except TimeoutError:
                raise SweepError(f"no worker joined in {WORKER_WAIT_SECONDS} s",
                                 scheduler) from None
            yield client, False
        return
    if workers is not None and workers < 1:
        raise SweepError(f"at least one worker is needed, not {workers}", "--workers")
    with _quiet("distributed"):  # its INFO lines on starting and stopping are not ours to show
        cluster = local_cluster(workers or default_workers())
        with contextlib.closing(cluster), contextlib.closing(Client(cluster)) as client:
            yield client, True


def local_cluster(workers: int):
    """A Dask ``LocalCluster`` of ``workers`` processes of one thread, set up for sweeps
    (``LOCAL_CONFIG``; the workers leave Ctrl-C to this process)."""
    import dask
    from distributed import LocalCluster

    with dask.config.set(LOCAL_CONFIG), _sigint_ignored():
        # dashboard_address=":0": a free port, so that clusters side by side do not warn
        return LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                            dashboard_address=":0", silence_logs=logging.ERROR)


@contextlib.contextmanager
def _sigint_ignored():
    """Worker processes started here inherit an ignored SIGINT: Ctrl-C in a terminal signals
    the whole process group, and only this process is to handle it (keeping finished runs)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@contextlib.contextmanager
def _quiet(name: str):
    logger = logging.getLogger(name)
    level = logger.level
    logger.setLevel(max(level, logging.ERROR))
    try:
        yield
    finally:
        logger.setLevel(level)


def system_files(path: str | os.PathLike, variant: str | None, local: bool):
    """The target as workers get it: its path for a local cluster, else its bytes (an
    unpacked folder, or the folder of an ``.ssd``, zipped as an ``.ssp``)."""
    from cosim.sweeps.worker import SystemFiles

    path = Path(path).resolve()
    if local:
        return SystemFiles(path.name, path=str(path), variant=variant)
    if path.is_file() and path.suffix.lower() in (".ssp", ".fmu"):
        return SystemFiles(path.name, data=path.read_bytes(), variant=variant)
    folder = path if path.is_dir() else path.parent
    if path.is_file() and path.name != "SystemStructure.ssd":
        variant = path.stem  # a bare .ssd: the variant of its folder's archive
    return SystemFiles(f"{folder.name or 'system'}.ssp", data=_zip(folder), variant=variant)


def _zip(folder: Path) -> bytes:
    buffer = io.BytesIO()
    total = 0
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for file in sorted(p for p in folder.rglob("*") if p.is_file()):
            total += file.stat().st_size
            if total > MAX_PACKED_BYTES:
                raise SweepError(f"the folder holds more than {MAX_PACKED_BYTES >> 20} MiB to "
                                 f"send to the workers: pack the system as an .ssp",
                                 str(folder))
            archive.write(file, file.relative_to(folder).as_posix())
    return buffer.getvalue()
