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
 * abbreviations, “number of”, the table's own noun, units, then one of
 * a yes/no prefix (`is_active` → “active status”), a participle before
 * `on`, `at`, `by` or a time noun (`joined_on` → “join date”,
 * `approved_by` → “approver”), another person's name (`author_full_name`
 * → “author's full name”) or a past participle alone, and a time unit
 * before a gerund. */

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
GrammarRulesValueKind
grammar_rules_value_kind (const char *declared_type)
{
  g_autofree char *type = NULL;

  if (declared_type == NULL || *declared_type == '\0')
    return VALUE_KIND_UNKNOWN;
  type = g_ascii_strup (declared_type, -1);
  if (strstr (type, "BOOL") != NULL)
    return VALUE_KIND_BOOLEAN;
  if (strstr (type, "DATETIME") != NULL || strstr (type, "TIMESTAMP") != NULL)
    return VALUE_KIND_TIMESTAMP;
  if (strstr (type, "DATE") != NULL)
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

/* The noun of the event a participle names: the table's (“joined” →
 * “join”), else by suffix, where English is regular: -ated → -ation
 * (“terminated” → “termination”), -ified → -ification, -ized/-ised →
 * -ization/-isation. NULL when no rule gives one (“placed”). */
static char *
event_noun (const char       *word,
            const Participle *entry)
{
  gsize len = strlen (word);

  if (entry != NULL)
    return g_strdup (entry->event);
  if (len >= 8 && g_str_has_suffix (word, "ated"))
    return g_strdup_printf ("%.*sion", (int) (len - 2), word);
  if (len >= 7 && g_str_has_suffix (word, "ified"))
    return g_strdup_printf ("%.*sication", (int) (len - 3), word);
  if (len >= 7 && (g_str_has_suffix (word, "ized") || g_str_has_suffix (word, "ised")))
    return g_strdup_printf ("%.*sation", (int) (len - 2), word);
  return NULL;
}

/* The agent noun of a participle, who did it: `approved_by` → “approver”,
 * `created_by` → “creator”, `verified_by` → “verifier”, `managed_by` →
 * “manager”. The stem without “-ed” takes “-er”, which also restores a
 * silent e (approv-er, manag-er, us-er) and a doubled consonant
 * (submitt-er); -ated and -cted take “-or” (validator, collector); a
 * few common verbs are irregular. */
static char *
agent_noun (const char *word)
{
  static const char * const irregular[][2] = {
    { "created", "creator" }, { "updated", "editor" }, { "modified", "editor" }, { "edited", "editor" },
    { "visited", "visitor" }, { "supervised", "supervisor" }, { "audited", "auditor" },
    { "sold", "seller" }, { "built", "builder" }, { "written", "writer" }, { "made", "maker" },
    { "paid", "payer" }, { "bought", "buyer" }, { "sent", "sender" }, { "held", "holder" },
    { "given", "giver" }, { "led", "leader" }, { "taught", "teacher" }, { "drawn", "illustrator" },
    { "done", "person responsible" }, { "chosen", "person who chose it" }, { "kept", "keeper" },
    { "found", "finder" }, { "won", "winner" }, { "shown", "presenter" }, { "taken", "taker" },
    { "known", "person who knows it" }, { "seen", "viewer" }, { "begun", "initiator" },
  };
  gsize len = strlen (word);

  for (guint i = 0; i < G_N_ELEMENTS (irregular); i++)
    if (g_str_equal (word, irregular[i][0]))
      return g_strdup (irregular[i][1]);
  if (len >= 8 && (g_str_has_suffix (word, "ated") || g_str_has_suffix (word, "cted")))
    return g_strdup_printf ("%.*sor", (int) (len - 2), word);
  if (len >= 4 && g_str_has_suffix (word, "ed"))
    return g_strdup_printf ("%.*ser", (int) (len - 2), word);
  return NULL;
}

static const char * const adjective_words[] = {
  "active", "open", "closed", "new", "free", "public", "private", "valid", "live", "default", "visible",
  "available", "primary", "main", "hidden", "online", "offline", "current", "enabled", "disabled", "ready",
  "empty", "full", "complete", "locked", "verified", "deleted", "archived", "paid", "late", "overdue", "due",
  "urgent", "secure", "safe", "stale", "dirty", "clean", "internal", "external", "local", "remote", "true",
  "false", "staff", "alive", "dead", "healthy", "vegan", "vegetarian", "organic", "recurring", "pending",
  "missing", "fragile", "taxable", "refundable", "unique", "mandatory", "optional", "read", "unread", NULL
};

static const char * const mass_nouns[] = {
  "parking", "access", "insurance", "wifi", "internet", "power", "electricity", "water", "heating",
  "furniture", "equipment", "stock", "permission", "permissions", "coverage", "funding", "support", "tax",
  "data", "experience", "information", "software", "storage", "seating", "delivery", "shipping", "air",
  "conditioning", "children", "kids", "pets", "dependents", "debt", "credit", "priority", "authority",
  "feedback", "clearance", "training", "tracking", "catering", "accommodation", NULL
};

static const char * const prepositions[] = {
  "in", "on", "at", "over", "under", "within", "above", "below", "out", "off", "for", "to", "from", "of",
  "with", "without", "by", "near", "past", "after", "before", NULL
};

static gboolean
is_adjective (const char *word)
{
  static const char * const suffixes[] = {
    "ive", "al", "ful", "ous", "ble", "ic", "ical", "ary", "less", "ile", "ish", "ent", "ant", NULL
  };
  const Participle *entry;

  return in_list (word, adjective_words) || is_participle (word, &entry) || grammar_rules_ends_with_any (word, suffixes);
}

/* “a”, “an” or nothing before a noun phrase that follows “is” or “have”:
 * an adjective, a preposition, a plural or a mass noun take none. */
static const char *
article_for (char **rest,
             guint  n,
             gboolean after_have)
{
  const char *first = rest[0];

  if (n == 0 || is_all_caps (first) || in_list (first, prepositions) || word_is_plural (rest[n - 1]))
    return "";
  if (!after_have && n == 1 && is_adjective (first))
    return "";
  if (in_list (rest[n - 1], mass_nouns))
    return "";
  if (!after_have && n > 1 && is_adjective (rest[n - 1]))
    return "";
  return strchr ("aeiou", first[0]) != NULL && !g_str_has_prefix (first, "use") &&
         !g_str_has_prefix (first, "uni") ? "an " : "a ";
}

/**
 * grammar_rules_column_predicate:
 * @column: a column name
 * @statement: (out): what the column says of its row: “is active”, “has parking”
 * @auxiliary: (out): the verb that opens the question: “is”, “does”, “has”
 * @rest: (out): what follows the subject in the question: “active”, “have parking”
 *
 * A column named as a yes/no question about its row (`is_active`,
 * `IsDiscontinued`, `has_parking`, `has_shipped`, `can_login`,
 * `was_returned`) reads as one: “whether the customer … is active”,
 * “Does the store … have parking?”. A noun takes its article (`is_gift`
 * → “is a gift”, `has_contract` → “has a contract”), a mass noun, a
 * plural or an adjective none (`has_parking`, `has_children`,
 * `is_active`).
 *
 * Returns: whether @column is such a name
 */
gboolean
grammar_rules_column_predicate (const char  *column,
                                char       **statement,
                                char       **auxiliary,
                                char       **rest)
{
  g_autoptr (GPtrArray) words = grammar_rules_identifier_words (column);
  g_autofree char *verb = NULL;
  g_autofree char *tail = NULL;
  const Participle *entry;
  const char *article;
  char **after;
  guint n;

  if (words->len < 2)
    return FALSE;
  verb = g_utf8_strdown (g_ptr_array_index (words, 0), -1);
  if (!g_str_equal (verb, "is") && !g_str_equal (verb, "has") && !g_str_equal (verb, "was") &&
      !g_str_equal (verb, "can") && !g_str_equal (verb, "are") && !g_str_equal (verb, "have"))
    return FALSE;
  g_ptr_array_remove_index (words, 0);
  expand_words (words);
  g_ptr_array_add (words, NULL);
  after = (char **) words->pdata;
  n = words->len - 1;
  tail = g_strjoinv (" ", after);

  if (g_str_equal (verb, "can"))
    {
      *statement = g_strdup_printf ("can %s", tail);
      *auxiliary = g_strdup ("can");
      *rest = g_strdup (tail);
    }
  else if ((g_str_equal (verb, "has") || g_str_equal (verb, "have")) && n == 1 && is_participle (after[0], &entry))
    {
      /* has_shipped: a perfect, “Has the order shipped?” */
      *statement = g_strdup_printf ("has %s", tail);
      *auxiliary = g_strdup ("has");
      *rest = g_strdup (tail);
    }
  else if (g_str_equal (verb, "has") || g_str_equal (verb, "have"))
    {
      article = article_for (after, n, TRUE);
      *statement = g_strdup_printf ("has %s%s", article, tail);
      *auxiliary = g_strdup ("does");
      *rest = g_strdup_printf ("have %s%s", article, tail);
    }
  else
    {
      const char *copula = g_str_equal (verb, "was") ? "was" : "is";

      article = article_for (after, n, FALSE);
      *statement = g_strdup_printf ("%s %s%s", copula, article, tail);
      *auxiliary = g_strdup (copula);
      *rest = g_strdup_printf ("%s%s", article, tail);
    }
  return TRUE;
}

/* `is_active` as a noun, where a yes/no question cannot be asked (an
 * aggregate, a condition): “active status”, “verification status”
 * (`is_verified`), “parking status” (`has_parking`). */
static gboolean
name_predicate (GPtrArray *words)
{
  const char *verb = g_ptr_array_index (words, 0);
  const char *last;
  const Participle *entry;
  g_autofree char *event = NULL;

  if (words->len < 2 || !(g_str_equal (verb, "is") || g_str_equal (verb, "has") || g_str_equal (verb, "was") ||
                          g_str_equal (verb, "can") || g_str_equal (verb, "are") || g_str_equal (verb, "have")))
    return FALSE;
  g_ptr_array_remove_index (words, 0);
  last = g_ptr_array_index (words, words->len - 1);
  if (words->len == 1 && is_participle (last, &entry) && (event = event_noun (last, entry)) != NULL)
    replace_word (words, 0, event);
  g_ptr_array_add (words, g_strdup ("status"));
  return TRUE;
}

static const char * const time_nouns[] = { "date", "time", "timestamp", "datetime", "day", "year", "ts", NULL };

/* The participles that name an event, with the words that say when or
 * by whom: `joined_on` → “join date”, `created_at` → “creation time”
 * (“creation date” for a DATE), `published_year` → “year of
 * publication”, `shipped_date` → “shipping date”, `last_updated_at` →
 * “last update time”, `approved_by` → “approver”, `placed_at` without
 * an event noun → “time placed”; `effective_on` → “effective date”,
 * `last_login_at` → “last login time”. */
static gboolean
name_event (GPtrArray             *words,
            GrammarRulesValueKind  kind)
{
  guint n = words->len;
  const char *last = g_ptr_array_index (words, n - 1);
  const char *before = n >= 2 ? g_ptr_array_index (words, n - 2) : NULL;
  const Participle *entry = NULL;
  gboolean participle = before != NULL && is_participle (before, &entry);
  g_autofree char *event = participle ? event_noun (before, entry) : NULL;
  g_autofree char *participle_word = before != NULL ? g_strdup (before) : NULL;
  g_autofree char *phrase = NULL;
  const char *noun;

  if (before == NULL)
    return FALSE;
  /* Only modifiers (“last”) may come before the participle: `order_placed_at`
   * is rather an order's “time placed” too, but `days_overdue_on` is no event. */
  for (guint i = 0; participle && i + 2 < n; i++)
    if (!in_list (g_ptr_array_index (words, i), participle_modifiers))
      participle = FALSE;

  if (g_str_equal (last, "by"))
    {
      g_autofree char *agent = participle ? agent_noun (participle_word) : NULL;

      if (agent == NULL)
        return FALSE;
      g_ptr_array_remove_index (words, n - 1);
      replace_word (words, n - 2, agent);
      return TRUE;
    }
  if (g_str_equal (last, "on") || g_str_equal (last, "at"))
    {
      /* A text column is a date only when an event says so (`joined_on`),
       * not `based_on`, `depends_on`. */
      if ((!participle || event == NULL) &&
          (kind == VALUE_KIND_TEXT || kind == VALUE_KIND_BOOLEAN || kind == VALUE_KIND_REAL))
        return FALSE;
      if (participle && entry != NULL && entry->event == NULL && entry->quantity)
        return FALSE;
      noun = g_str_equal (last, "on") || kind == VALUE_KIND_DATE ? "date" : "time";
    }
  else if (participle && in_list (last, time_nouns))
    noun = g_str_equal (last, "ts") || g_str_equal (last, "timestamp") || g_str_equal (last, "datetime") ? "time" :
           g_str_equal (last, "date") ? "date" : g_str_equal (last, "time") ? "time" :
           g_str_equal (last, "day") ? "day" : "year";
  else
    return FALSE;

  if (!participle)
    {
      /* `effective_on`, `last_login_at`: the words say what, the suffix when. */
      replace_word (words, n - 1, noun);
      return TRUE;
    }
  if (g_str_equal (noun, "year"))
    phrase = event != NULL ? g_strdup_printf ("year of %s", event) : g_strdup_printf ("year %s", participle_word);
  else
    phrase = event != NULL ? g_strdup_printf ("%s %s", event, noun) : NULL;
  g_ptr_array_remove_index (words, n - 1);
  if (phrase != NULL)
    {
      replace_word (words, n - 2, phrase);
      return TRUE;
    }
  /* No event noun: “date placed”, “time last inspected”, the noun before
   * the modifiers. */
  g_ptr_array_insert (words, 0, g_strdup (noun));
  return TRUE;
}

/* People's names and contacts, which take a possessive. */
static const char * const personal_attributes[] = {
  "name", "full name", "first name", "last name", "middle name", "surname", "given name", "family name",
  "email", "email address", "phone", "phone number", "telephone", "telephone number", "mobile",
  "mobile number", "address", "nickname", "age", "nationality", "signature", NULL
};

static const char * const person_nouns[] = {
  "person", "member", "user", "client", "staff", "contact", "parent", "guardian", "spouse", "partner",
  "child", "guest", "patient", "student", "tenant", "host", "agent", "author", "editor", "doctor",
  "nurse", "pilot", "captain", "coach", "head", "chair", "chef", "boss", "lead", "representative",
  "rep", "vendor", "donor", "sponsor", "contractor", "recipient", "applicant", "resident",
  "participant", "attendee", "employee", "trainee", "nominee", NULL
};

/* Words in -er/-or that name no person (“order number”, “center name”). */
static const char * const not_persons[] = {
  "order", "number", "center", "centre", "folder", "paper", "letter", "water", "chapter", "counter",
  "register", "filter", "server", "computer", "container", "cover", "corner", "border", "header",
  "footer", "layer", "meter", "poster", "error", "color", "colour", "floor", "door", "sector",
  "factor", "vector", "motor", "monitor", "mirror", "river", "tower", "power", "quarter", "semester",
  "winter", "summer", "after", "other", "outer", "inner", "upper", "lower", "super", "never", "major",
  "minor", "senior", "junior", "interior", "exterior", "tractor", "reactor", "timer", "trailer", NULL
};

static gboolean
is_person_noun (const char *word)
{
  static const char * const agent_suffixes[] = { "er", "or", "ist", "ee", "ian", NULL };

  if (in_list (word, not_persons))
    return FALSE;
  return in_list (word, person_nouns) || (strlen (word) > 3 && grammar_rules_ends_with_any (word, agent_suffixes));
}

/* Another person's name or contact takes the possessive: a book's
 * `author_full_name` is “the author's full name”, a supplier's
 * `contact_email` “the contact's email”. */
static gboolean
name_possessive (GPtrArray *words)
{
  g_autofree char *tail = NULL;
  char *person;

  if (words->len < 2 || words->len > 3 || !is_person_noun (g_ptr_array_index (words, 0)))
    return FALSE;
  g_ptr_array_add (words, NULL);
  tail = g_strjoinv (" ", (char **) words->pdata + 1);
  g_ptr_array_remove_index (words, words->len - 1);
  if (!in_list (tail, personal_attributes))
    return FALSE;
  person = g_ptr_array_index (words, 0);
  words->pdata[0] = g_strconcat (person, "'s", NULL);
  g_free (person);
  return TRUE;
}

/* A participle alone, or after “last”…, names an event: what the column
 * holds is its date (its year, for a whole number), or an amount for
 * the participles of payments (“amount paid”). */
static void
name_participle (GPtrArray             *words,
                 GrammarRulesValueKind  kind)
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
    case VALUE_KIND_TIMESTAMP:
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
grammar_rules_column_phrase (const char            *column,
                             GrammarRulesValueKind  kind,
                             const char            *owner_noun)
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
  if (!name_predicate (words) && !name_event (words, kind) && !name_possessive (words))
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

/* The attribute @attribute of the row @owner as one noun phrase, the
 * owner first: “client name”, but a person's name or contact in the
 * possessive (“the customer's full name”, “the author's email”), which
 * does not read as a compound noun. */
char *
grammar_rules_compound (const char *owner,
                        const char *attribute)
{
  /* A bare “name” makes a compound of its own: “the client name”. */
  if (in_list (attribute, personal_attributes) && !g_str_equal (attribute, "name"))
    return g_strdup_printf ("%s's %s", owner, attribute);
  return g_strdup_printf ("%s %s", owner, attribute);
}
