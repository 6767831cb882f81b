/* grammar-request-statistics.c: the end-of-run line of a component that sends requests
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "grammar-request-statistics.h"

/* The statistics property @name of @object as a number, when it has one. */
static gboolean
read_number (GObject    *object,
             const char *name,
             double     *value)
{
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (object), name);
  g_auto (GValue) read = G_VALUE_INIT;
  g_auto (GValue) converted = G_VALUE_INIT;

  *value = 0;
  if (pspec == NULL || (pspec->flags & G_PARAM_READABLE) == 0 ||
      !g_value_type_transformable (pspec->value_type, G_TYPE_DOUBLE))
    return FALSE;
  g_value_init (&read, pspec->value_type);
  g_value_init (&converted, G_TYPE_DOUBLE);
  g_object_get_property (object, name, &read);
  if (!g_value_transform (&read, &converted))
    return FALSE;
  *value = g_value_get_double (&converted);
  return TRUE;
}

static void
append_ms (GString *line,
           double   ms)
{
  if (ms < 10)
    g_string_append_printf (line, "%.1f ms", ms);
  else if (ms < 10000)
    g_string_append_printf (line, "%.0f ms", ms);
  else
    g_string_append_printf (line, "%.1f s", ms / 1000);
}

/**
 * grammar_format_request_statistics:
 * @object: a component that sends requests, such as the `openai`
 *   language model or the `http` system
 * @label: what the line starts with, such as `llm` or `system`
 *
 * The line `grammar` prints at the end of a run on what a component's
 * requests cost, from the statistics properties @object has of these
 * (those of #GrammarHttpClient, which grammar_http_client_install_statistics()
 * gives a plugin, and `cache-hits`, `prompt-tokens` and
 * `completion-tokens`):
 *
 * |[
 * system: 6621 requests, 331 retries (298 HTTP 5xx, 33 timeout), 66 timeouts, latency median 52 ms, p95 180 ms
 * llm: 120 requests, 30 cache hits, 2 retries (2 HTTP 429), 9000 prompt + 800 completion tokens, 0 timeouts, latency median 410 ms, p95 1.9 s
 * ]|
 *
 * The retries are broken down by cause (HTTP 429, HTTP 5xx or 408,
 * timeout, connection lost, malformed reply) when there are some;
 * requests that failed in the end are counted when there are some; the
 * latency is that of the replies, read from the client's histogram.
 *
 * Returns: (transfer full) (nullable): the line, without a newline, or
 *   %NULL when @object has none of these statistics
 */
char *
grammar_format_request_statistics (GObject    *object,
                                   const char *label)
{
  static const struct { const char *name; const char *cause; } causes[] = {
    { "retries-429", "HTTP 429" },
    { "retries-5xx", "HTTP 5xx" },
    { "retries-timeout", "timeout" },
    { "retries-connection", "connection lost" },
    { "retries-malformed", "malformed reply" },
  };
  g_autoptr (GString) line = NULL;
  double requests, cache_hits, retries, timeouts, failures, median, p95, prompt, completion;
  gboolean has_requests, has_cache, has_retries, has_timeouts, has_failures, has_latency, has_tokens;
  gboolean first = TRUE;

  g_return_val_if_fail (G_IS_OBJECT (object), NULL);
  g_return_val_if_fail (label != NULL, NULL);

  has_requests = read_number (object, "requests", &requests);
  has_cache = read_number (object, "cache-hits", &cache_hits);
  has_retries = read_number (object, "retries", &retries);
  has_timeouts = read_number (object, "timeouts", &timeouts);
  has_failures = read_number (object, "failures", &failures);
  has_latency = read_number (object, "latency-median-ms", &median) & read_number (object, "latency-p95-ms", &p95);
  has_tokens = read_number (object, "prompt-tokens", &prompt) | read_number (object, "completion-tokens", &completion);
  if (!has_requests && !has_cache && !has_retries && !has_tokens)
    return NULL;

  line = g_string_new (NULL);
  g_string_append_printf (line, "%s: %.0f requests", label, requests);
  if (has_cache)
    g_string_append_printf (line, ", %.0f cache hits", cache_hits);
  g_string_append_printf (line, ", %.0f retries", retries);
  for (gsize i = 0; i < G_N_ELEMENTS (causes) && retries > 0; i++)
    {
      double n;

      if (!read_number (object, causes[i].name, &n) || n == 0)
        continue;
      g_string_append_printf (line, "%s%.0f %s", first ? " (" : ", ", n, causes[i].cause);
      first = FALSE;
    }
  if (!first)
    g_string_append_c (line, ')');
  if (has_tokens)
    g_string_append_printf (line, ", %.0f prompt + %.0f completion tokens", prompt, completion);
  if (has_timeouts)
    g_string_append_printf (line, ", %.0f timeouts", timeouts);
  if (has_failures && failures > 0)
    g_string_append_printf (line, ", %.0f failed", failures);
  if (has_latency && requests > 0 && median > 0)
    {
      g_string_append (line, ", latency median ");
      append_ms (line, median);
      g_string_append (line, ", p95 ");
      append_ms (line, p95);
    }
  return g_string_free (g_steal_pointer (&line), FALSE);
}
