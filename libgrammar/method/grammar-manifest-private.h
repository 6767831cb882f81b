/* grammar-manifest-private.h: what each stage's file of a run was made from
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define GRAMMAR_TYPE_MANIFEST (grammar_manifest_get_type ())
G_GNUC_INTERNAL
G_DECLARE_FINAL_TYPE (GrammarManifest, grammar_manifest, GRAMMAR, MANIFEST, GObject)

G_GNUC_INTERNAL
GrammarManifest *grammar_manifest_load   (const char       *folder,
                                          GError          **error);
G_GNUC_INTERNAL
gboolean         grammar_manifest_lookup (GrammarManifest  *self,
                                          const char       *file,
                                          const char      **fingerprint,
                                          gboolean         *complete);
G_GNUC_INTERNAL
void             grammar_manifest_set    (GrammarManifest  *self,
                                          const char       *file,
                                          const char       *fingerprint,
                                          gboolean          complete);
G_GNUC_INTERNAL
gboolean         grammar_manifest_save   (GrammarManifest  *self,
                                          GError          **error);

G_END_DECLS
