/* Make eflomal reproducible: an LD_PRELOAD library that answers eflomal's one read of
 * /dev/urandom (its only source of randomness) with the seed in XEL_EFLOMAL_SEED.
 * Any other fopen, and every fopen when XEL_EFLOMAL_SEED is unset, goes to the C library.
 * xel compiles this on first use (see xel/align.py); it is xel's own code, not eflomal's. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

FILE *fopen(const char *path, const char *mode) {
    static FILE *(*real_fopen)(const char *, const char *) = NULL;
    static uint64_t seed;
    const char *text = getenv("XEL_EFLOMAL_SEED");
    if (real_fopen == NULL) real_fopen = (FILE *(*)(const char *, const char *))dlsym(RTLD_NEXT, "fopen");
    if (text != NULL && path != NULL && strcmp(path, "/dev/urandom") == 0) {
        seed = strtoull(text, NULL, 10);
        return fmemopen(&seed, sizeof seed, mode);
    }
    return real_fopen(path, mode);
}
