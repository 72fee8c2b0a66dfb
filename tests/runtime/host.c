/* A minimal FMI 3.0 Co-Simulation host for memory checking: loads an FMU's binary, runs it
 * to the stop time, saves, serializes, restores and frees its state on the way.
 *   host BINARY TOKEN STOP STEP */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "fmi3FunctionTypes.h"

static void logger(fmi3InstanceEnvironment env, fmi3Status status, fmi3String category, fmi3String message) {
    (void)env;
    fprintf(stderr, "[%d] %s: %s\n", (int)status, category, message);
}

#define LOAD(name) name##TYPE *name = (name##TYPE *)dlsym(library, #name); \
    if (!name) { fprintf(stderr, "missing %s\n", #name); return 2; }

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: host BINARY TOKEN STOP STEP\n");
        return 2;
    }
    void *library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        fprintf(stderr, "%s\n", dlerror());
        return 2;
    }
    LOAD(fmi3InstantiateCoSimulation) LOAD(fmi3EnterInitializationMode) LOAD(fmi3ExitInitializationMode)
    LOAD(fmi3DoStep) LOAD(fmi3Terminate) LOAD(fmi3FreeInstance) LOAD(fmi3GetFMUState) LOAD(fmi3SetFMUState)
    LOAD(fmi3FreeFMUState) LOAD(fmi3SerializedFMUStateSize) LOAD(fmi3SerializeFMUState)
    LOAD(fmi3DeserializeFMUState) LOAD(fmi3SetDebugLogging)
    const double stop = atof(argv[3]), step = atof(argv[4]);
    fmi3Instance instance = fmi3InstantiateCoSimulation("host", argv[2], NULL, fmi3False, fmi3True, fmi3False,
                                                        fmi3False, NULL, 0, NULL, logger, NULL);
    if (!instance) return 1;
    fmi3SetDebugLogging(instance, fmi3False, 0, NULL);
    int failed = fmi3EnterInitializationMode(instance, fmi3False, 0.0, 0.0, fmi3True, stop) != fmi3OK
                 || fmi3ExitInitializationMode(instance) != fmi3OK;
    fmi3FMUState saved = NULL;
    for (long k = 0; !failed && (k + 1) * step <= stop * (1 + 1e-12); k++) {
        fmi3Boolean event, terminate, early;
        fmi3Float64 last;
        const fmi3Status status = fmi3DoStep(instance, k * step, step, fmi3False, &event, &terminate, &early, &last);
        if (status > fmi3Warning) {
            printf("doStep failed at t = %g\n", k * step);
            break;
        }
        if (terminate) break;
        if (k == 3) {
            size_t size = 0;
            fmi3GetFMUState(instance, &saved);
            fmi3SerializedFMUStateSize(instance, saved, &size);
            fmi3Byte *bytes = malloc(size);
            fmi3SerializeFMUState(instance, saved, bytes, size);
            fmi3FreeFMUState(instance, &saved);
            fmi3DeserializeFMUState(instance, bytes, size, &saved);
            free(bytes);
        }
        if (k == 6 && saved) {
            fmi3SetFMUState(instance, saved);
            k = 3;
            fmi3FreeFMUState(instance, &saved);
        }
    }
    if (saved) fmi3FreeFMUState(instance, &saved);
    fmi3Terminate(instance);
    fmi3FreeInstance(instance);
    dlclose(library);
    return failed;
}
