/* replay_int.h - what replay.c takes from replay_json.c. */
#ifndef NUMATOP_REPLAY_INT_H
#define NUMATOP_REPLAY_INT_H

#include <stddef.h>

#include "sampler.h"

/* A recorded sample line as --json prints it (see replay_json_line):
 * *out malloc'ed. 0, -EBADMSG (no JSON object) or -ENOMEM. */
int replay_json_clean(const char *line, size_t len, const struct sampler_filter *f, char **out,
		      size_t *olen);

#endif
