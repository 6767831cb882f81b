/* grammar-hash-private.h: the product's one non-cryptographic hash and its seeded random sequence
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

G_GNUC_INTERNAL
guint64 grammar_hash_fnv1a64          (const char *text);
G_GNUC_INTERNAL
guint64 grammar_hash_fnv1a64_len      (const void *data,
                                       gsize       length);
G_GNUC_INTERNAL
guint64 grammar_hash_splitmix64_next  (guint64    *state);

G_END_DECLS
