/* grammar-rule-phrases.c: column names made into noun phrases a person would say, for the rule verbalizer
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>
#include "grammar-rule-verbalizer-private.h"

/* A column name is not yet something a person says: `Sales_in_Billion`
 * is “the sales (in billions)”, `Year_working` “the years working”,
 * `joined` a “join date” when it holds dates, `isbn` “the ISBN”. The
 * rules below work on the humanised words, in this order: codes and
 * abbreviations, “number of”, the table's own noun, units, past
 * participles, and a time unit before a gerund. */

/* Identifiers and codes a person writes in capitals. */
static const char * const codes[] = {
  "id", "isbn", "issn", "ssn", "url", "uri", "ip", "vat", "iban", "bic", "sku", "ean", "upc", "doi",
  "uuid", "guid", "gps", "pin", "gdp", "usd", "eur", "gbp", "jpy", "chf", "cny", "aud", "cad", "inr",
  "kb", "mb", "gb", "tb", NULL
};

/* Abbreviations in column names, and what they stand for. */
static const char * const abbreviations[][2] = {
  { "num", "number" }, { "nbr", "number" }, { "nr", "number" }, { "qty", "quantity" },
  { "amt", "amount" }, { "addr", "address" }, { "dept", "department" }, { "desc", "description" },
  { "dob", "date of birth" }, { "avg", "average" }, { "max", "maximum" }, { "tel", "telephone" },
  { "yr", "year" }, { "yrs", "years" }, { "mgr", "manager" }, { "emp", "employee" },
  { "cust", "customer" }, { "acct", "account" }, { "bal", "balance" }, { "cnt", "count" },
  { "pct", "percent" }, { "perc", "percent" }, { "dt", "date" },
};

/* Units: the word in a name, how it reads after “in”, and whether it
 * may end a name without “in” (`weight_kg`, but not `birth_year`). */
typedef struct
{
  const char *word;
  const char *reads;
  gboolean suffix;
} Unit;

static const Unit units[] = {
  { "hundred", "hundreds", TRUE }, { "thousand", "thousands", TRUE }, { "million", "millions", TRUE },
  { "billion", "billions", TRUE }, { "trillion", "trillions", TRUE },
  { "hundreds", "hundreds", TRUE }, { "thousands", "thousands", TRUE }, { "millions", "millions", TRUE },
  { "billions", "billions", TRUE }, { "trillions", "trillions", TRUE },
  { "dollar", "dollars", TRUE }, { "dollars", "dollars", TRUE }, { "euro", "euros", TRUE },
  { "euros", "euros", TRUE }, { "pound", "pounds", FALSE }, { "pounds", "pounds", FALSE },
  { "cent", "cents", TRUE }, { "cents", "cents", TRUE }, { "yen", "yen", TRUE },
  { "usd", "USD", TRUE }, { "eur", "EUR", TRUE }, { "gbp", "GBP", TRUE }, { "jpy", "JPY", TRUE },
  { "chf", "CHF", TRUE }, { "cny", "CNY", TRUE }, { "aud", "AUD", TRUE }, { "cad", "CAD", TRUE },
  { "inr", "INR", TRUE },
  { "percent", "percent", TRUE }, { "percentage", "percent", TRUE },
  { "kg", "kg", TRUE }, { "g", "g", FALSE }, { "mg", "mg", TRUE }, { "lb", "lb", TRUE }, { "lbs", "lb", TRUE },
  { "km", "km", TRUE }, { "m", "m", FALSE }, { "cm", "cm", TRUE }, { "mm", "mm", TRUE },
  { "ft", "ft", TRUE }, { "mi", "miles", FALSE }, { "ml", "ml", TRUE }, { "l", "litres", FALSE },
  { "kb", "KB", TRUE }, { "mb", "MB", TRUE }, { "gb", "GB", TRUE }, { "tb", "TB", TRUE },
  { "kwh", "kWh", TRUE }, { "mph", "mph", TRUE }, { "kmh", "km/h", TRUE },
  { "meter", "meters", FALSE }, { "meters", "meters", FALSE }, { "metre", "metres", FALSE },
  { "metres", "metres", FALSE }, { "kilometer", "kilometers", FALSE }, { "kilometers", "kilometers", FALSE },
  { "kilometre", "kilometres", FALSE }, { "kilometres", "kilometres", FALSE }, { "mile", "miles", FALSE },
  { "miles", "miles", FALSE }, { "gram", "grams", FALSE }, { "grams", "grams", FALSE },
  { "kilogram", "kilograms", FALSE }, { "kilograms", "kilograms", FALSE }, { "tonne", "tonnes", FALSE },
  { "tonnes", "tonnes", FALSE }, { "ton", "tons", FALSE }, { "tons", "tons", FALSE },
  { "litre", "litres", FALSE }, { "litres", "litres", FALSE }, { "liter", "liters", FALSE },
  { "liters", "liters", FALSE },
  { "second", "seconds", FALSE }, { "seconds", "seconds", FALSE }, { "sec", "seconds", FALSE },
  { "minute", "minutes", FALSE }, { "minutes", "minutes", FALSE }, { "min", "minutes", FALSE },
  { "hour", "hours", FALSE }, { "hours", "hours", FALSE }, { "day", "days", FALSE },
  { "days", "days", FALSE }, { "week", "weeks", FALSE }, { "weeks", "weeks", FALSE },
  { "month", "months", FALSE }, { "months", "months", FALSE }, { "year", "years", FALSE },
  { "years", "years", FALSE },
};

/* Past participles that name an event, the event's noun, and whether
 * the participle is rather about an amount (“paid”, “sold”). */
typedef struct
{
  const char *participle;
  const char *event;    /* nullable: “date added”, not “addition date” */
  gboolean quantity;
} Participle;

static const Participle participles[] = {
  { "born", "birth", FALSE }, { "joined", "join", FALSE }, { "founded", "founding", FALSE },
  { "published", "publication", FALSE }, { "established", "establishment", FALSE },
  { "created", "creation", FALSE }, { "released", "release", FALSE }, { "opened", "opening", FALSE },
  { "hired", "hire", FALSE }, { "died", "death", FALSE }, { "married", "marriage", FALSE },
  { "registered", "registration", FALSE }, { "enrolled", "enrollment", FALSE },
  { "graduated", "graduation", FALSE }, { "retired", "retirement", FALSE }, { "launched", "launch", FALSE },
  { "started", "start", FALSE }, { "ended", "end", FALSE }, { "finished", "finish", FALSE },
  { "closed", "closing", FALSE }, { "completed", "completion", FALSE }, { "updated", "update", FALSE },
  { "modified", "modification", FALSE }, { "signed", "signing", FALSE }, { "elected", "election", FALSE },
  { "appointed", "appointment", FALSE }, { "admitted", "admission", FALSE }, { "arrived", "arrival", FALSE },
  { "departed", "departure", FALSE }, { "expired", "expiry", FALSE }, { "renewed", "renewal", FALSE },
  { "submitted", "submission", FALSE }, { "approved", "approval", FALSE },
  { "cancelled", "cancellation", FALSE }, { "canceled", "cancellation", FALSE },
  { "deleted", "deletion", FALSE }, { "built", "construction", FALSE }, { "issued", "issue", FALSE },
  { "returned", "return", FALSE }, { "added", NULL, FALSE }, { "borrowed", "borrowing", TRUE },
  { "paid", "payment", TRUE }, { "ordered", "order", TRUE }, { "shipped", "shipping", TRUE },
  { "delivered", "delivery", TRUE }, { "sold", "sale", TRUE }, { "received", "receipt", TRUE },
  { "donated", "donation", TRUE }, { "produced", "production", TRUE }, { "earned", NULL, TRUE },
  { "spent", NULL, TRUE }, { "owed", NULL, TRUE }, { "raised", NULL, TRUE }, { "scored", NULL, TRUE },
  { "won", NULL, TRUE }, { "lost", NULL, TRUE }, { "used", NULL, TRUE },
};

/* Irregular participles besides those above. */
static const char * const irregular_participles[] = {
  "made", "done", "known", "given", "taken", "written", "held", "sent", "shown", "seen", "chosen",
  "found", "bought", "kept", "left", "met", "led", "begun", "drawn", "grown", "broken", "worn", NULL
};

/* Words in -ed that are no participles. */
static const char * const ed_words[] = {
  "speed", "breed", "creed", "greed", "seed", "need", "feed", "weed", "reed", "deed", "steed", "tweed",
  "hundred", "bed", "red", "shed", "sled", "shred", "bred", "embed", "sacred", "naked", "wicked",
  "rugged", "ragged", "kindred", NULL
};

/* Words before a participle that leave it the head (“last updated”). */
static const char * const participle_modifiers[] = {
  "last", "first", "initially", "originally", "recently", NULL
};

/* Nouns in -s that are singular, and plural nouns without -s. */
static const char * const singular_in_s[] = {
  "news", "series", "species", "headquarters", "gas", "lens", "means", "physics", "mathematics",
  "economics", "politics", "ethics", "athletics", "electronics", "linguistics", "genetics",
  "logistics", "gymnastics", "billiards", "diabetes", "measles", "whereabouts", NULL
};

static const char * const plural_without_s[] = { "people", "children", "men", "women", "feet", "teeth", NULL };

static const char * const time_units[] = { "year", "month", "week", "day", "hour", "minute", "second", NULL };

static gboolean
in_list (const char         *word,
         const char * const *list)
{
  return g_strv_contains (list, word);
}

/* Whether @word names a code rather than a thing: `isbn`, `code`,
 * `number`, `key`… */
gboolean
grammar_rules_is_code_word (const char *word)
{
  static const char * const code_words[] = { "code", "number", "no", "nr", "num", "key", "ref", "reference", NULL };
  g_autofree char *lower = g_utf8_strdown (word, -1);

  return (in_list (lower, codes) && !g_str_equal (lower, "id")) || in_list (lower, code_words);
}

static gboolean
is_all_caps (const char *word)
{
  gboolean any = FALSE;

  for (const char *p = word; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_islower (c))
        return FALSE;
      any = any || g_unichar_isupper (c);
    }
  return any;
}

/* ValueKind from a declared type, by the words SQL types are made of
 * (SQLite's affinity rules, with dates, times and booleans first). */
ValueKind
grammar_rules_value_kind (const char *declared_type)
{
  g_autofree char *type = NULL;

  if (declared_type == NULL || *declared_type == '\0')
    return VALUE_KIND_UNKNOWN;
  type = g_ascii_strup (declared_type, -1);
  if (strstr (type, "BOOL") != NULL)
    return VALUE_KIND_BOOLEAN;
  if (strstr (type, "DATE") != NULL || strstr (type, "TIMESTAMP") != NULL)
    return VALUE_KIND_DATE;
  if (strstr (type, "TIME") != NULL)
    return VALUE_KIND_TIME;
  if (strstr (type, "INT") != NULL)
    return VALUE_KIND_INTEGER;
  if (strstr (type, "CHAR") != NULL || strstr (type, "CLOB") != NULL || strstr (type, "TEXT") != NULL)
    return VALUE_KIND_TEXT;
  if (strstr (type, "REAL") != NULL || strstr (type, "FLOA") != NULL || strstr (type, "DOUB") != NULL ||
      strstr (type, "DEC") != NULL || strstr (type, "NUM") != NULL || strstr (type, "MONEY") != NULL)
    return VALUE_KIND_REAL;
  return VALUE_KIND_UNKNOWN;
}

static const Unit *
find_unit (const char *word)
{
  g_autofree char *lower = g_utf8_strdown (word, -1);

  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    if (g_str_equal (lower, units[i].word))
      return &units[i];
  return NULL;
}

/* Whether @word is a past participle; @entry is its row of the table
 * above, or NULL. */
static gboolean
is_participle (const char        *word,
               const Participle **entry)
{
  gsize len = strlen (word);

  *entry = NULL;
  for (guint i = 0; i < G_N_ELEMENTS (participles); i++)
    if (g_str_equal (word, participles[i].participle))
      {
        *entry = &participles[i];
        return TRUE;
      }
  if (in_list (word, irregular_participles))
    return TRUE;
  return len >= 5 && g_str_has_suffix (word, "ed") && !in_list (word, ed_words);
}

/* Replaces the word at @index by the words of @text; returns how many. */
static guint
replace_word (GPtrArray  *words,
              guint       index,
              const char *text)
{
  g_auto (GStrv) parts = g_strsplit (text, " ", -1);
  guint n = g_strv_length (parts);

  g_ptr_array_remove_index (words, index);
  for (guint i = 0; i < n; i++)
    g_ptr_array_insert (words, index + i, g_strdup (parts[i]));
  return n;
}

/* Codes in capitals, abbreviations spelt out; “no” only where it is a
 * number (`phone_no`, `no_of_pages`). */
static void
expand_words (GPtrArray *words)
{
  guint i = 0;

  while (i < words->len)
    {
      g_autofree char *lower = g_utf8_strdown (g_ptr_array_index (words, i), -1);
      const char *next = i + 1 < words->len ? g_ptr_array_index (words, i + 1) : NULL;
      const char *expansion = NULL;

      if (in_list (lower, codes))
        {
          g_autofree char *upper = g_utf8_strup (lower, -1);

          i += replace_word (words, i, upper);
          continue;
        }
      if (g_str_equal (lower, "no") && (next == NULL || g_str_equal (next, "of")))
        expansion = "number";
      for (guint a = 0; expansion == NULL && a < G_N_ELEMENTS (abbreviations); a++)
        if (g_str_equal (lower, abbreviations[a][0]))
          expansion = abbreviations[a][1];
      i += expansion != NULL ? replace_word (words, i, expansion) : 1;
    }
}

static char *
pluralize_word (const char *word)
{
  if (is_all_caps (word))
    return g_strconcat (word, "s", NULL);
  return grammar_rules_pluralize (word);
}

static gboolean
word_is_plural (const char *word)
{
  g_autofree char *singular = NULL;

  if (is_all_caps (word) || in_list (word, singular_in_s))
    return FALSE;
  if (in_list (word, plural_without_s))
    return TRUE;
  if (!g_str_has_suffix (word, "s"))
    return FALSE;
  singular = grammar_rules_singularize (word);
  return !g_str_equal (singular, word);
}

/* “number of awards” for `num_awards`, “number of employees” for
 * `number_employee`. */
static void
number_of (GPtrArray *words)
{
  char *last;

  if (words->len < 2 || !g_str_equal (g_ptr_array_index (words, 0), "number") ||
      g_str_equal (g_ptr_array_index (words, 1), "of"))
    return;
  g_ptr_array_insert (words, 1, g_strdup ("of"));
  last = g_ptr_array_index (words, words->len - 1);
  if (!word_is_plural (last))
    {
      words->pdata[words->len - 1] = pluralize_word (last);
      g_free (last);
    }
}

/* Drops the owner's noun from the front: a project's `project_name` is
 * its “name”, a company's `Company_ID` its “ID”. */
static void
strip_owner (GPtrArray  *words,
             const char *owner_noun)
{
  g_auto (GStrv) owner = owner_noun != NULL ? g_strsplit (owner_noun, " ", -1) : NULL;
  guint n = owner != NULL ? g_strv_length (owner) : 0;

  if (n == 0 || words->len <= n)
    return;
  for (guint i = 0; i < n; i++)
    if (g_ascii_strcasecmp (g_ptr_array_index (words, i), owner[i]) != 0)
      return;
  g_ptr_array_remove_range (words, 0, n);
}

/* Takes the unit off the end of @words: after “in” (`Sales_in_Billion`,
 * `duration_in_min`, `price_in_thousand_usd`) or, for units that do not
 * read as nouns of their own, bare (`weight_kg`, `price_usd`). Returns
 * how it reads in parentheses, or NULL. */
static char *
take_unit (GPtrArray *words)
{
  guint n = words->len;

  for (guint in = 1; in + 1 < n; in++)
    {
      const Unit *first, *second = NULL;
      char *reads;

      if (g_ascii_strcasecmp (g_ptr_array_index (words, in), "in") != 0)
        continue;
      first = find_unit (g_ptr_array_index (words, in + 1));
      if (in + 3 == n)
        second = find_unit (g_ptr_array_index (words, in + 2));
      if (first == NULL || (in + 2 != n && second == NULL))
        continue;
      reads = second != NULL ? g_strdup_printf ("in %s of %s", first->reads, second->reads) :
                               g_strdup_printf ("in %s", first->reads);
      g_ptr_array_remove_range (words, in, n - in);
      return reads;
    }
  if (n >= 2)
    {
      const Unit *last = find_unit (g_ptr_array_index (words, n - 1));

      if (last != NULL && last->suffix)
        {
          char *reads = g_strdup_printf ("in %s", last->reads);

          g_ptr_array_remove_index (words, n - 1);
          return reads;
        }
    }
  return NULL;
}

/* A participle alone, or after “last”…, names an event: what the column
 * holds is its date (its year, for a whole number), or an amount for
 * the participles of payments (“amount paid”). */
static void
name_participle (GPtrArray *words,
                 ValueKind  kind)
{
  const char *last = g_ptr_array_index (words, words->len - 1);
  const Participle *entry;
  g_autofree char *phrase = NULL;

  if (!is_participle (last, &entry))
    return;
  for (guint i = 0; i + 1 < words->len; i++)
    if (!in_list (g_ptr_array_index (words, i), participle_modifiers))
      return;

  switch (kind)
    {
    case VALUE_KIND_INTEGER:
    case VALUE_KIND_REAL:
      if (entry != NULL && entry->quantity)
        phrase = g_strdup_printf ("%s %s", kind == VALUE_KIND_INTEGER ? "number" : "amount", last);
      else
        phrase = entry != NULL && entry->event != NULL ? g_strdup_printf ("%s year", entry->event) :
                                                         g_strdup_printf ("year %s", last);
      break;
    case VALUE_KIND_BOOLEAN:
      phrase = entry != NULL && entry->event != NULL ? g_strdup_printf ("%s status", entry->event) :
                                                       g_strdup_printf ("%s flag", last);
      break;
    case VALUE_KIND_TIME:
      phrase = entry != NULL && entry->event != NULL ? g_strdup_printf ("%s time", entry->event) :
                                                       g_strdup_printf ("time %s", last);
      break;
    case VALUE_KIND_DATE:
    case VALUE_KIND_TEXT:
    case VALUE_KIND_UNKNOWN:
    default:
      phrase = entry != NULL && entry->event != NULL ? g_strdup_printf ("%s date", entry->event) :
                                                       g_strdup_printf ("date %s", last);
      break;
    }
  replace_word (words, words->len - 1, phrase);
}

/* “years working” for `Year_working`: a time unit counted by a gerund. */
static void
count_time (GPtrArray *words)
{
  const char *unit, *next;

  if (words->len < 2)
    return;
  unit = g_ptr_array_index (words, 0);
  next = g_ptr_array_index (words, 1);
  if (in_list (unit, time_units) && strlen (next) > 4 && g_str_has_suffix (next, "ing"))
    {
      words->pdata[0] = grammar_rules_pluralize (unit);
      g_free ((char *) unit);
    }
}

/* The noun phrase that names @column: its humanised words, with codes
 * (“ISBN”, “ID”) in capitals, abbreviations spelt out (“number of
 * awards”, “email address”, “date of birth”), @owner_noun dropped from
 * the front, the unit in parentheses (“sales (in billions)”, “weight (in
 * kg)”), a past participle made a noun by @kind (`joined` → “join
 * date”, `born` → “birth date”, `published` INTEGER → “publication
 * year”, `paid` REAL → “amount paid”) and a counted time unit in the
 * plural (“years working”). */
char *
grammar_rules_column_phrase (const char *column,
                             ValueKind   kind,
                             const char *owner_noun)
{
  g_autoptr (GPtrArray) words = grammar_rules_identifier_words (column);
  g_autofree char *unit = NULL;
  g_autofree char *text = NULL;

  if (words->len == 0)
    return g_strdup ("value");
  expand_words (words);
  number_of (words);
  strip_owner (words, owner_noun);
  unit = take_unit (words);
  name_participle (words, kind);
  count_time (words);
  g_ptr_array_add (words, NULL);
  text = g_strjoinv (" ", (char **) words->pdata);
  return unit != NULL ? g_strdup_printf ("%s (%s)", text, unit) : g_steal_pointer (&text);
}

/* The index of the head word of @words: the noun the phrase is about,
 * before “of” or “per” (“number of awards”, “hours per week”), a
 * counted time unit (“years working”), the noun a participle follows
 * (“books borrowed”), else the last word. */
static guint
head_index (char **words,
            guint  n)
{
  guint end = n;
  const Participle *entry;

  for (guint i = 1; i < n; i++)
    if (g_str_equal (words[i], "of") || g_str_equal (words[i], "per") || words[i][0] == '(')
      {
        end = i;
        break;
      }
  if (end >= 2)
    {
      g_autofree char *singular = grammar_rules_singularize (words[0]);

      if (in_list (singular, time_units) && !g_str_equal (singular, words[0]))
        return 0;
      if (is_participle (words[end - 1], &entry))
        return end - 2;
    }
  return end > 0 ? end - 1 : 0;
}

/* Whether a phrase of grammar_rules_column_phrase() takes “are”. */
gboolean
grammar_rules_phrase_is_plural (const char *phrase)
{
  g_auto (GStrv) words = g_strsplit (phrase, " ", -1);
  guint n = g_strv_length (words);

  return n > 0 && word_is_plural (words[head_index (words, n)]);
}

/* @phrase with its head word in the plural: “industries”, “birth
 * dates”, “dates of birth”, “ISBNs”; a plural phrase stays. */
char *
grammar_rules_phrase_pluralize (const char *phrase)
{
  g_auto (GStrv) words = g_strsplit (phrase, " ", -1);
  guint n = g_strv_length (words);
  guint head;

  if (n == 0)
    return g_strdup (phrase);
  head = head_index (words, n);
  if (!word_is_plural (words[head]))
    {
      char *plural = pluralize_word (words[head]);

      g_free (words[head]);
      words[head] = plural;
    }
  return g_strjoinv (" ", words);
}

/* @phrase under an aggregate (“number of”, “highest”…): “number of
 * industries”, “highest age”, “highest sales (in billions)”; counted
 * time reads as a number (“highest number of years working”). */
char *
grammar_rules_phrase_aggregate (const char *aggregate,
                                const char *phrase)
{
  g_auto (GStrv) words = g_strsplit (phrase, " ", -1);
  g_autofree char *first = NULL;

  if (g_str_equal (aggregate, "number of"))
    {
      g_autofree char *plural = grammar_rules_phrase_pluralize (phrase);

      return g_strconcat ("number of ", plural, NULL);
    }
  first = words[0] != NULL ? grammar_rules_singularize (words[0]) : NULL;
  if (g_strv_length (words) >= 2 && in_list (first, time_units) && !g_str_equal (first, words[0]))
    return g_strconcat (aggregate, " number of ", phrase, NULL);
  return g_strconcat (aggregate, " ", phrase, NULL);
}
