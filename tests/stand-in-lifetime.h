/* stand-in-lifetime.h: how the tests' stand-in servers stop
 *
 * A test that spawns a stand-in server (fake-openai, rag-stand-in) keeps
 * a pipe to its stdin: the server stops on SIGTERM, on SIGINT or when
 * that pipe closes, so a test that dies never leaves it running.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct _StandInLifetime StandInLifetime;

StandInLifetime *stand_in_lifetime_start (GMainLoop       *loop);
void             stand_in_lifetime_stop  (StandInLifetime *self);

G_END_DECLS
