/* grammar-openai-cache.c: responses kept in an SQLite file
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>

#include <gio/gio.h>
#include <sqlite3.h>

#include "grammar-openai-cache.h"

/* One table of responses by key. The file is in WAL mode so that a
 * reader never waits for a writer, with a busy timeout so that two
 * processes sharing it wait for each other's short write transactions
 * instead of failing. Every response is written in its own transaction
 * as soon as it arrives: a run killed half-way keeps what it was sent.
 * Only request bodies are hashed into keys; the API key never reaches
 * the file. */

#define BUSY_TIMEOUT_MS 30000

struct _GrammarOpenaiCache
{
  sqlite3 *db;
  sqlite3_stmt *lookup;
  sqlite3_stmt *store;
  char *path;
};

static gboolean
exec (GrammarOpenaiCache  *cache,
      const char          *sql,
      GError             **error)
{
  char *message = NULL;
  gint64 deadline = g_get_monotonic_time () + BUSY_TIMEOUT_MS * (gint64) 1000;
  int rc;

  /* Setting up the file (the switch to WAL, the table) takes locks for
   * which SQLite may answer SQLITE_BUSY at once, without waiting, when
   * another process opens the file at the same moment: try again. */
  while (((rc = sqlite3_exec (cache->db, sql, NULL, NULL, &message)) & 0xff) == SQLITE_BUSY ||
         (rc & 0xff) == SQLITE_LOCKED)
    {
      if (g_get_monotonic_time () >= deadline)
        break;
      sqlite3_free (g_steal_pointer (&message));
      g_usleep (5000 + g_random_int_range (0, 10000));
    }
  if (rc != SQLITE_OK)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "response cache %s: %s", cache->path,
                   message != NULL ? message : sqlite3_errmsg (cache->db));
      sqlite3_free (message);
      return FALSE;
    }
  return TRUE;
}

GrammarOpenaiCache *
grammar_openai_cache_open (const char  *path,
                           GError     **error)
{
  g_autoptr (GrammarOpenaiCache) cache = g_new0 (GrammarOpenaiCache, 1);
  g_autofree char *dir = g_path_get_dirname (path);

  cache->path = g_strdup (path);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   "response cache %s: cannot make its folder: %s", path, g_strerror (saved));
      return NULL;
    }
  if (sqlite3_open_v2 (path, &cache->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                       NULL) != SQLITE_OK)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "response cache %s: %s", path,
                   cache->db != NULL ? sqlite3_errmsg (cache->db) : "out of memory");
      return NULL;
    }
  sqlite3_busy_timeout (cache->db, BUSY_TIMEOUT_MS);
  if (!exec (cache, "PRAGMA journal_mode=WAL", error) ||
      !exec (cache, "PRAGMA synchronous=NORMAL", error) ||
      !exec (cache, "CREATE TABLE IF NOT EXISTS responses ("
                    " key TEXT PRIMARY KEY NOT NULL,"
                    " value TEXT NOT NULL,"
                    " created INTEGER NOT NULL)", error))
    return NULL;
  if (sqlite3_prepare_v2 (cache->db, "SELECT value FROM responses WHERE key = ?", -1, &cache->lookup, NULL) != SQLITE_OK ||
      sqlite3_prepare_v2 (cache->db, "INSERT OR REPLACE INTO responses (key, value, created) VALUES (?, ?, ?)", -1,
                          &cache->store, NULL) != SQLITE_OK)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "response cache %s: %s", path, sqlite3_errmsg (cache->db));
      return NULL;
    }
  return g_steal_pointer (&cache);
}

void
grammar_openai_cache_close (GrammarOpenaiCache *cache)
{
  if (cache == NULL)
    return;
  sqlite3_finalize (cache->lookup);
  sqlite3_finalize (cache->store);
  sqlite3_close (cache->db);
  g_free (cache->path);
  g_free (cache);
}

/* SHA-256 of the model and the canonical request body. */
char *
grammar_openai_cache_key (const char *model,
                          const char *body)
{
  g_autoptr (GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA256);

  g_checksum_update (checksum, (const guchar *) model, -1);
  g_checksum_update (checksum, (const guchar *) "\n", 1);
  g_checksum_update (checksum, (const guchar *) body, -1);
  return g_strdup (g_checksum_get_string (checksum));
}

char *
grammar_openai_cache_lookup (GrammarOpenaiCache *cache,
                             const char         *key)
{
  char *value = NULL;
  int rc;

  sqlite3_bind_text (cache->lookup, 1, key, -1, SQLITE_TRANSIENT);
  rc = sqlite3_step (cache->lookup);
  if (rc == SQLITE_ROW)
    value = g_strdup ((const char *) sqlite3_column_text (cache->lookup, 0));
  else if (rc != SQLITE_DONE)
    g_debug ("response cache %s: %s", cache->path, sqlite3_errmsg (cache->db));
  sqlite3_reset (cache->lookup);
  sqlite3_clear_bindings (cache->lookup);
  return value;
}

gboolean
grammar_openai_cache_store (GrammarOpenaiCache  *cache,
                            const char          *key,
                            const char          *value,
                            GError             **error)
{
  gboolean ok;

  sqlite3_bind_text (cache->store, 1, key, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (cache->store, 2, value, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int64 (cache->store, 3, g_get_real_time () / G_USEC_PER_SEC);
  ok = sqlite3_step (cache->store) == SQLITE_DONE;
  if (!ok)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "response cache %s: %s", cache->path,
                 sqlite3_errmsg (cache->db));
  sqlite3_reset (cache->store);
  sqlite3_clear_bindings (cache->store);
  return ok;
}
