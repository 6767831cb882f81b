/* grammar-aliases.c: sets of names that mean the same thing
 *
 * An alias set is a line of names separated by `|`, the first one its
 * name: `United States|USA|US|U.S.|America|American`. Each name is cut
 * into tokens by the matchers' own rules (grammar-match-tokens.c), and
 * wherever a name's tokens occur in a text they are replaced by the
 * tokens of the set's first name, in the response and in the true
 * answer alike, so that "USA" and "the United States of America" meet.
 * The longest name wins where several start at the same token.
 *
 * A line with a single name keeps that phrase whole: "South America"
 * is then not read as "South" and the alias "America".
 *
 * A name written in capitals only (at least two letters: "US", "U.S.")
 * matches only text written in capitals, so that the pronoun "us" is not
 * the United States. Sets that share a name are merged; the merged set
 * keeps the name of the one defined first, so a user file extends the
 * built-in sets.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "grammar-aliases.h"
#include "grammar-match-tokens.h"

typedef struct
{
  char **words;         /* the canonical token texts */
  guint n_words;
  gboolean exact_case;  /* written in capitals: matches capitals only */
  guint set;
} Phrase;

struct _GrammarAliases
{
  GPtrArray *phrases;       /* Phrase, owned */
  GHashTable *by_key;       /* words joined by spaces + case mark → Phrase */
  GHashTable *by_first;     /* first word → GPtrArray of Phrase, longest first */
  GArray *parent;           /* guint per set: a union-find forest */
  GPtrArray *first_phrase;  /* Phrase per set: its first name */
};

/* Countries with their usual short names, codes and demonyms, the
 * equivalents a reader takes for granted. Two-letter codes that are
 * also common abbreviations of something else (GB, CA, IN…) are left
 * out on purpose. */
static const char * const builtin_sets[] = {
  "United States|United States of America|USA|U.S.A.|US|U.S.|America|American",
  "United Kingdom|UK|U.K.|Great Britain|Britain|British|United Kingdom of Great Britain and Northern Ireland",
  "Netherlands|Holland|Dutch|Kingdom of the Netherlands",
  "Germany|Federal Republic of Germany|Deutschland|German|FRG",
  "France|French Republic|French",
  "China|People's Republic of China|PRC|P.R.C.|Mainland China|Chinese",
  "Russia|Russian Federation|Russian",
  "Brazil|Brasil|Federative Republic of Brazil|Brazilian",
  "Japan|Japanese|Nippon",
  "India|Republic of India|Indian",
  "Canada|Canadian",
  "Australia|Commonwealth of Australia|Australian",
  "Italy|Italian Republic|Italia|Italian",
  "Spain|Kingdom of Spain|Espana|Spanish",
  "Mexico|United Mexican States|Mexican",
  "South Korea|Republic of Korea|Korea|ROK|Korean",
  "North Korea|DPRK|Democratic People's Republic of Korea|North Korean",
  "Switzerland|Swiss Confederation|Swiss",
  "Sweden|Swedish", "Norway|Norwegian", "Denmark|Danish", "Finland|Finnish",
  "Ireland|Republic of Ireland|Irish",
  "Belgium|Belgian", "Austria|Austrian", "Portugal|Portuguese",
  "Greece|Hellenic Republic|Greek",
  "Turkey|Turkiye|Republic of Turkey|Turkish",
  "Israel|State of Israel|Israeli", "Egypt|Arab Republic of Egypt|Egyptian",
  "South Africa|Republic of South Africa|RSA|South African",
  "Nigeria|Nigerian", "Kenya|Kenyan",
  "Argentina|Argentine Republic|Argentine|Argentinian", "Chile|Chilean", "Colombia|Colombian",
  "Peru|Peruvian", "Venezuela|Venezuelan",
  "Saudi Arabia|Kingdom of Saudi Arabia|KSA|Saudi",
  "United Arab Emirates|UAE|U.A.E.|Emirati",
  "Iran|Islamic Republic of Iran|Persia|Iranian", "Iraq|Iraqi",
  "Pakistan|Pakistani", "Bangladesh|Bangladeshi",
  "Indonesia|Indonesian", "Malaysia|Malaysian", "Singapore|Singaporean",
  "Thailand|Thai", "Vietnam|Viet Nam|Vietnamese", "Philippines|Philippine|Filipino",
  "New Zealand|NZ|New Zealander",
  "Czech Republic|Czechia|Czech", "Ukraine|Ukrainian", "Hungary|Hungarian", "Romania|Romanian",
  "Taiwan|Republic of China|ROC|Taiwanese",
  "Hong Kong|HK|Hong Kong SAR",
  "Scotland|Scottish", "Wales|Welsh",
  "Soviet Union|USSR|U.S.S.R.|Union of Soviet Socialist Republics|Soviet",
  "European Union|EU|E.U.",
  /* Names that contain one of the names above but mean something else:
   * a set of its own keeps them whole. */
  "North America|North American", "South America|South American", "Latin America|Latin American",
  "Central America|Central American", "Native American", "American Samoa", "British Columbia",
  "British Virgin Islands", "Indian Ocean", "New South Wales",
};

static void
phrase_free (Phrase *phrase)
{
  g_strfreev (phrase->words);
  g_free (phrase);
}

static guint
find_root (GrammarAliases *self,
           guint           set)
{
  while (g_array_index (self->parent, guint, set) != set)
    set = g_array_index (self->parent, guint, set);
  return set;
}

/* The older set stays the root, so the merged set keeps its name. */
static void
merge_sets (GrammarAliases *self,
            guint           a,
            guint           b)
{
  guint ra = find_root (self, a), rb = find_root (self, b);

  if (ra < rb)
    g_array_index (self->parent, guint, rb) = ra;
  else if (rb < ra)
    g_array_index (self->parent, guint, ra) = rb;
}

/* Capitals only, at least two letters: "US", "U.S.", not "A". */
static gboolean
written_in_capitals (const char *name)
{
  guint letters = 0;

  for (const char *p = name; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_isalpha (c))
        {
          if (g_unichar_islower (c))
            return FALSE;
          letters++;
        }
    }
  return letters >= 2;
}

static void
index_phrase (GrammarAliases *self,
              Phrase         *phrase,
              const char     *key)
{
  GPtrArray *list = g_hash_table_lookup (self->by_first, phrase->words[0]);
  guint at = 0;

  g_ptr_array_add (self->phrases, phrase);
  g_hash_table_insert (self->by_key, g_strdup (key), phrase);
  if (list == NULL)
    {
      list = g_ptr_array_new ();
      g_hash_table_insert (self->by_first, g_strdup (phrase->words[0]), list);
    }
  while (at < list->len && ((Phrase *) g_ptr_array_index (list, at))->n_words >= phrase->n_words)
    at++;
  g_ptr_array_insert (list, (gint) at, phrase);
}

/* Adds one name to @set; FALSE when it has no token. */
static gboolean
add_name (GrammarAliases *self,
          const char     *name,
          guint           set)
{
  g_autofree char *base = grammar_match_base (name);
  g_autoptr (GArray) tokens = grammar_match_tokenize (base, FALSE, NULL);
  gboolean exact_case = written_in_capitals (name);
  g_autoptr (GString) key = g_string_new (NULL);
  Phrase *phrase;

  if (tokens->len == 0)
    return FALSE;
  for (guint i = 0; i < tokens->len; i++)
    g_string_append_printf (key, "%s ", g_array_index (tokens, GrammarMatchToken, i).text);
  g_string_append (key, exact_case ? "\001A" : "\001a");

  phrase = g_hash_table_lookup (self->by_key, key->str);
  if (phrase != NULL)
    merge_sets (self, phrase->set, set);
  else
    {
      phrase = g_new0 (Phrase, 1);
      phrase->words = g_new0 (char *, tokens->len + 1);
      for (guint i = 0; i < tokens->len; i++)
        phrase->words[i] = g_strdup (g_array_index (tokens, GrammarMatchToken, i).text);
      phrase->n_words = tokens->len;
      phrase->exact_case = exact_case;
      phrase->set = set;
      index_phrase (self, phrase, key->str);
    }
  if (g_ptr_array_index (self->first_phrase, set) == NULL)
    g_ptr_array_index (self->first_phrase, set) = phrase;
  return TRUE;
}

/**
 * grammar_aliases_add_set:
 * @self: the aliases
 * @line: names separated by `|`
 * @error: return location for a #GError
 *
 * Adds an alias set. Blank names are skipped; a set of one name only
 * protects that phrase from the other sets.
 *
 * Returns: %FALSE with @error (%GRAMMAR_CONFIG_ERROR_BAD_VALUE) when no
 *   name remains or a name has no letter or digit
 */
gboolean
grammar_aliases_add_set (GrammarAliases  *self,
                         const char      *line,
                         GError         **error)
{
  g_auto (GStrv) names = g_strsplit (line, "|", -1);
  guint set = self->parent->len;
  guint n_names = 0;

  for (guint i = 0; names[i] != NULL; i++)
    if (g_strstrip (names[i])[0] != '\0')
      n_names++;
  if (n_names == 0)
    {
      g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                   "an alias set needs at least one name (names are separated by “|”)");
      return FALSE;
    }

  g_array_append_val (self->parent, set);
  g_ptr_array_add (self->first_phrase, NULL);
  for (guint i = 0; names[i] != NULL; i++)
    if (names[i][0] != '\0' && !add_name (self, names[i], set))
      {
        g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                     "the name “%s” has no letter or digit", names[i]);
        return FALSE;
      }
  return TRUE;
}

/**
 * grammar_aliases_load_file:
 * @self: the aliases
 * @path: a UTF-8 text file: one alias set a line, `#` comments, blank lines
 * @error: return location for a #GError
 *
 * Returns: %FALSE with @error when the file cannot be read
 *   (%GRAMMAR_CONFIG_ERROR_INIT) or a line is wrong
 *   (%GRAMMAR_CONFIG_ERROR_BAD_VALUE, "PATH:LINE: …")
 */
gboolean
grammar_aliases_load_file (GrammarAliases  *self,
                           const char      *path,
                           GError         **error)
{
  g_autofree char *contents = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GError) local_error = NULL;

  if (!g_file_get_contents (path, &contents, NULL, &local_error))
    {
      g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_INIT, "%s", local_error->message);
      return FALSE;
    }
  if (!g_utf8_validate (contents, -1, NULL))
    {
      g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE, "%s: not UTF-8 text", path);
      return FALSE;
    }

  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = g_strstrip (lines[i]);

      if (line[0] == '\0' || line[0] == '#')
        continue;
      if (!grammar_aliases_add_set (self, line, &local_error))
        {
          g_set_error (error, GRAMMAR_CONFIG_ERROR, GRAMMAR_CONFIG_ERROR_BAD_VALUE,
                       "%s:%u: %s", path, i + 1, local_error->message);
          return FALSE;
        }
    }
  return TRUE;
}

/**
 * grammar_aliases_new:
 * @builtin: start with the built-in sets
 *
 * Returns: (transfer full): a new alias table
 */
GrammarAliases *
grammar_aliases_new (gboolean builtin)
{
  GrammarAliases *self = g_new0 (GrammarAliases, 1);

  self->phrases = g_ptr_array_new_with_free_func ((GDestroyNotify) phrase_free);
  self->by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->by_first = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
  self->parent = g_array_new (FALSE, FALSE, sizeof (guint));
  self->first_phrase = g_ptr_array_new ();

  if (builtin)
    for (gsize i = 0; i < G_N_ELEMENTS (builtin_sets); i++)
      if (!grammar_aliases_add_set (self, builtin_sets[i], NULL))
        g_assert_not_reached ();
  return self;
}

void
grammar_aliases_free (GrammarAliases *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->by_first);
  g_hash_table_unref (self->by_key);
  g_ptr_array_unref (self->phrases);
  g_array_unref (self->parent);
  g_ptr_array_unref (self->first_phrase);
  g_free (self);
}

/* The number of distinct sets once merged. */
guint
grammar_aliases_get_n_sets (GrammarAliases *self)
{
  guint n = 0;

  for (guint i = 0; i < self->parent->len; i++)
    if (find_root (self, i) == i)
      n++;
  return n;
}

static gboolean
phrase_matches (Phrase *phrase,
                GArray *tokens,
                guint   at)
{
  if (at + phrase->n_words > tokens->len)
    return FALSE;
  for (guint k = 0; k < phrase->n_words; k++)
    {
      GrammarMatchToken *token = &g_array_index (tokens, GrammarMatchToken, at + k);

      if (!g_str_equal (token->text, phrase->words[k]))
        return FALSE;
      if (phrase->exact_case && (token->flags & GRAMMAR_MATCH_TOKEN_UPPER) == 0)
        return FALSE;
    }
  return TRUE;
}

static Phrase *
longest_match (GrammarAliases *self,
               GArray         *tokens,
               guint           at)
{
  GPtrArray *list = g_hash_table_lookup (self->by_first, g_array_index (tokens, GrammarMatchToken, at).text);

  if (list == NULL)
    return NULL;
  for (guint i = 0; i < list->len; i++)
    if (phrase_matches (g_ptr_array_index (list, i), tokens, at))
      return g_ptr_array_index (list, i);
  return NULL;
}

/**
 * grammar_aliases_apply:
 * @self: the aliases
 * @tokens: (element-type GrammarMatchToken): tokens
 *
 * Returns: (transfer full): a copy of @tokens where every alias is
 *   replaced by the tokens of its set's name
 */
GArray *
grammar_aliases_apply (GrammarAliases *self,
                       GArray         *tokens)
{
  GArray *out = grammar_match_tokens_new ();
  guint i = 0;

  while (i < tokens->len)
    {
      GrammarMatchToken *token = &g_array_index (tokens, GrammarMatchToken, i);
      Phrase *phrase = longest_match (self, tokens, i);
      Phrase *name;
      gsize end;

      if (phrase == NULL)
        {
          GrammarMatchToken copy = { g_strdup (token->text), token->start, token->end, token->flags };

          g_array_append_val (out, copy);
          i++;
          continue;
        }
      name = g_ptr_array_index (self->first_phrase, find_root (self, phrase->set));
      end = g_array_index (tokens, GrammarMatchToken, i + phrase->n_words - 1).end;
      for (guint k = 0; k < name->n_words; k++)
        {
          GrammarMatchToken copy = { g_strdup (name->words[k]), token->start, end, 0 };

          g_array_append_val (out, copy);
        }
      i += phrase->n_words;
    }
  return out;
}
