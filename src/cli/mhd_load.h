/* mhd_load.h - libmicrohttpd, loaded only for --serve.
 *
 * Linked in, libmicrohttpd and the GnuTLS it pulls in add about 2.5 MB of
 * resident memory (their constructors and relocations) to every run of the
 * program, the monitor included, for a feature few runs use. So --serve
 * dlopen()s it; mhd_load.c defines the few MHD_* functions serve.c calls
 * as calls through the loaded library. */
#ifndef NUMATOP_MHD_LOAD_H
#define NUMATOP_MHD_LOAD_H

#include <stddef.h>

/* 0, or -ENOENT with the reason (and the package to install) in err. */
int mhd_load(char *err, size_t errsz);

#endif
