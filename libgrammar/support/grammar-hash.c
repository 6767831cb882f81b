/* grammar-hash.c: the product's one non-cryptographic hash and its seeded random sequence
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "grammar-hash-private.h"

/* Deterministic sampling: SplitMix64, seeded per group and style so that
 * the choice for one group does not depend on any other. */
guint64
grammar_hash_splitmix64_next (guint64 *state)
{
  guint64 z = (*state += G_GUINT64_CONSTANT (0x9E3779B97F4A7C15));

  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94D049BB133111EB);
  return z ^ (z >> 31);
}

/* FNV-1a, 64 bits, of @length bytes: the product's one non-cryptographic
 * hash (a style's seed, a judged record's id and SQL in a report, a
 * passage's text in the retrieval metrics). */
guint64
grammar_hash_fnv1a64_len (const void *data,
                          gsize       length)
{
  guint64 hash = G_GUINT64_CONSTANT (0xCBF29CE484222325);
  const guchar *p = data;

  for (gsize i = 0; i < length; i++)
    hash = (hash ^ p[i]) * G_GUINT64_CONSTANT (0x100000001B3);
  return hash;
}

guint64
grammar_hash_fnv1a64 (const char *text)
{
  return grammar_hash_fnv1a64_len (text, strlen (text));
}
