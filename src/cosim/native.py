"""The master's C code (stepping loop, Model Exchange driver with Radau IIA, the FMI proxy
of isolated FMUs), built with cffi, and the isolation worker executable, built with gcc.

Built at first use into a cache folder keyed by a hash of the C sources, the declarations and
the Python and cffi versions: ``native()`` returns the module (``.ffi``, ``.lib``),
``worker_executable()`` the worker's path. The folder is ``$COSIM_CACHE_DIR``, else
``$XDG_CACHE_HOME/cosim`` or ``~/.cache/cosim``. Builds are atomic: parallel processes may race.
"""
from __future__ import annotations

import functools
import hashlib
import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

from cosim.errors import CosimError

MODULE = "_cosim_native"
SOURCES = ("master_loop.c", "me_driver.c", "me_fmi3.c", "me_fmi2.c", "radau5.c", "crossing.c",
           "dense_lu.c", "sparse_lu.c", "isolation_proxy.c", "clock_schedule.c")
WORKER = "cosim-worker"
# the worker runs the Model Exchange driver of its FMU too (isolation_driver.c)
WORKER_SOURCES = ("isolation_worker.c", "isolation_driver.c", "isolation_lone.c", "master_loop.c",
                  "isolation_proxy.c", "me_driver.c", "me_fmi3.c", "me_fmi2.c", "radau5.c",
                  "crossing.c", "dense_lu.c", "sparse_lu.c", "clock_schedule.c")
FLAGS = ("-O2", "-std=gnu99", "-fvisibility=hidden", "-Wno-unused-parameter")

CDEF = """
typedef struct Host Host;
typedef void (*MeAnyFunction)(void);
typedef void (*AnyFunction)(void);
typedef struct { void *instance; MeAnyFunction functions[16]; } MeFmu;
typedef struct {
    size_t n; uint32_t *vrs; int *kinds; double *intervals, *shifts; double *ticks;
    size_t *tick_start; size_t *tick_next; long long *count; double *next; double t0;
} ClockSchedule;
typedef struct { double t; size_t events, steps; char message[512]; ...; } MeDriver;
MeDriver *me_driver_new(int fmi_major, const MeFmu *fmu, size_t n, size_t nz,
                        const uint32_t *state_vrs, const uint32_t *derivative_vrs,
                        bool use_directional, double tolerance);
void me_driver_free(MeDriver *d);
int me_driver_start(MeDriver *d, double t0);
int me_driver_do_step(MeDriver *d, double t, double h, bool *terminate);
void me_driver_set_clocks(MeDriver *d, ClockSchedule *clocks, size_t *due, uint32_t *due_vrs);
void cosim_clock_update(void *environment);

typedef union { double f; int64_t i; uint64_t u; } Value;
typedef struct { unsigned char *bytes; size_t used, capacity; size_t *offsets, *lengths;
                 size_t count, slots; } TextPool;
typedef struct {
    int fmi_major; void *instance; AnyFunction get[13]; AnyFunction set[13];
    AnyFunction do_step, get_state, set_state, get_boolean_status, get_real_status;
    bool event_mode; AnyFunction enter_event_mode, update_discrete_states, enter_step_mode;
    MeDriver *driver; struct Host *remote; bool scheduled; ClockSchedule *clocks; size_t *due; uint32_t *due_vrs;
    AnyFunction activate, set_clock, get_interval; long long multiple; void *saved_state; bool terminated; double reached;
    size_t events; ...;
} Component;
typedef struct { size_t component; int type; size_t first_vr, n_vrs; size_t first, count; } Batch;
typedef struct {
    size_t n_rows, n_columns; double *times; Value *values; size_t *slots; int *types;
    bool *linear; size_t row;
} InputTable;
typedef struct { Value *data; size_t n, capacity; ...; } RowBuffer;
typedef struct Master {
    size_t n_components; Component *components; Value *signals; int *slot_types; size_t n_slots;
    Batch *reads; size_t *read_start; uint32_t *read_vrs; size_t *read_slots;
    Batch *writes; size_t *write_start; uint32_t *write_vrs; size_t *write_sources;
    int *write_modes; double *write_factors, *write_offsets; size_t *map_start;
    double *map_from, *map_to; Value *written;
    size_t n_stages; size_t *stage_start; size_t *stage_members; bool *stage_is_loop;
    bool jacobi; double t0, h, stop; long long n_steps;
    size_t n_record; size_t *record_slots; bool event_rows; RowBuffer rows; TextPool texts;
    InputTable inputs;
    int max_iterations; double loop_tolerance; size_t loop_iterations;
    unsigned char *scratch; size_t *scratch_sizes;
    long long error_component; const char *error_function; int error_status; double error_time;
    size_t warnings; long long terminated_by;
    double deadline; bool allow_nonfinite; size_t nonfinite; long long nonfinite_slot;
    double nonfinite_value, nonfinite_time; struct Host *lone; ...;
} Master;
#define MASTER_OK 0
#define MASTER_TERMINATED 100
#define MASTER_LOOP_DIVERGED 101
#define MASTER_NONFINITE 102
#define MASTER_TIMEOUT 103
#define MASTER_NO_MEMORY 104
int master_setup(Master *m);
void master_release(Master *m);
void master_lock(Master *m);
void master_unlock(Master *m);
size_t master_add_text(Master *m, const void *bytes, size_t size);
void master_attach_driver(Master *m, size_t index, MeDriver *driver);
int master_initialize(Master *m);
int master_start_clocks(Master *m);
int master_attach_remote(Master *m, size_t index, struct Host *host);
int master_go_lone(Master *m, struct Host *host);
int master_read_all(Master *m);
int master_record(Master *m, double t);
int master_steps(Master *m, long long k_begin, long long k_end, long long *done);
double master_time(const Master *m, long long k);

typedef void (*ProxyFunction)(void);
typedef struct { const char *name; ProxyFunction function; } ProxyEntry;
Host *cosim_host_start(const char *worker, const char *library, int fmi_major, const char *preload,
                       char *error, size_t error_size);
void cosim_host_stop(Host *h);
void cosim_host_set_deadline(Host *h, double deadline);
void cosim_host_set_spin(Host *h, double seconds);
int cosim_host_pid(const Host *h);
int cosim_host_exports(const Host *h, int function);
int cosim_host_outcome(const Host *h, int *signal, int *exit_code, int *timed_out);
const char *cosim_host_failed_function(const Host *h);
int cosim_host_driver_new(Host *h, int fmi_major, size_t n, size_t nz, const uint32_t *state_vrs,
                          const uint32_t *derivative_vrs, bool directional, double tolerance);
int cosim_host_driver_start(Host *h, double t0, double *t_reached);
const char *cosim_host_driver_message(const Host *h);
extern const ProxyEntry cosim_proxy_functions[];
extern const size_t cosim_proxy_count;
"""


def template_dir() -> Path:
    """The C runtime folder: ``fmu_templates/`` of a checkout, or the installed copy."""
    checkout = Path(__file__).resolve().parents[2] / "fmu_templates"
    if (checkout / "master_loop.c").is_file():
        return checkout
    spec = importlib.util.find_spec("compiler.fmu_templates")
    if spec is not None and spec.submodule_search_locations:
        return Path(list(spec.submodule_search_locations)[0])
    raise CosimError("the master's C sources (fmu_templates/master_loop.c) are not installed")


def _fmi_headers() -> Path:
    import fmpy

    return Path(fmpy.__file__).parent / "c-code"


def cache_dir() -> Path:
    if os.environ.get("COSIM_CACHE_DIR"):
        return Path(os.environ["COSIM_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "cosim"


def _content_hash(folder: Path) -> str:
    import cffi

    digest = hashlib.sha256(CDEF.encode())
    digest.update(f"{sys.version}|{cffi.__version__}|{FLAGS}".encode())
    for path in sorted(folder.glob("*.[ch]")):
        digest.update(path.name.encode() + path.read_bytes())
    return digest.hexdigest()[:20]


def _build(folder: Path, target: Path) -> None:
    import cffi

    ffi = cffi.FFI()
    ffi.cdef(CDEF)
    ffi.set_source(MODULE, '#include "master_loop.h"\n#include "isolation_proxy.h"',
                   sources=[str(folder / name) for name in SOURCES],
                   include_dirs=[str(folder), str(_fmi_headers())],
                   extra_compile_args=list(FLAGS), libraries=["m", "pthread"])
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="build-", dir=target.parent) as work:
        try:
            built = Path(ffi.compile(tmpdir=work, verbose=False))
        except Exception as error:  # distutils raises its own CompileError/LinkError types
            raise CosimError(f"building the master's C code failed: {error}",
                             str(folder)) from None
        os.replace(built, target)  # atomic: a parallel build just replaces an identical file


def _build_worker(folder: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    staged = target.with_name(f".{target.name}.{os.getpid()}")
    command = [os.environ.get("CC", "gcc"), "-std=gnu99", "-O2", "-I", str(folder), "-I",
               str(_fmi_headers()), *[str(folder / name) for name in WORKER_SOURCES], "-o",
               str(staged), "-ldl", "-lm", "-lpthread"]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        staged.unlink(missing_ok=True)
        raise CosimError(f"building the isolation worker failed: {result.stderr.strip()}",
                         str(folder / "isolation_worker.c"))
    os.replace(staged, target)


@functools.lru_cache(maxsize=None)
def worker_executable() -> Path:
    """The isolation worker (``isolation_worker.c``), built on first use."""
    folder = template_dir()
    target = cache_dir() / _content_hash(folder) / WORKER
    if not target.is_file():
        _build_worker(folder, target)
    return target


@functools.lru_cache(maxsize=None)
def native():
    """The compiled module (``.ffi``, ``.lib``), built on first use."""
    folder = template_dir()
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    target = cache_dir() / _content_hash(folder) / f"{MODULE}{suffix}"
    if not target.is_file():
        _build(folder, target)
    loader = importlib.machinery.ExtensionFileLoader(MODULE, str(target))
    spec = importlib.util.spec_from_file_location(MODULE, str(target), loader=loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def clear_cache() -> None:
    """Remove every cached build (they are rebuilt on next use)."""
    shutil.rmtree(cache_dir(), ignore_errors=True)
