/* grammar-rule-verbalizer.c: text templates from SQL templates, by rules
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "grammar-rule-verbalizer-private.h"
#include "grammar-error.h"
#include "grammar-rule-verbalizer.h"
#include "grammar-sql-lexer-private.h"

/**
 * GrammarRuleVerbalizer:
 *
 * Turns an SQL template into natural-language text templates in one of
 * the text styles (see grammar_text_style_list()), without a language
 * model.
 *
 * It reads enough of the SQL to know what is asked: the projected
 * column or columns (`SELECT <expr> FROM`, aliases resolved to tables
 * through the `FROM` and `JOIN` clauses; `COUNT`, `MAX`, `MIN`, `AVG`
 * and `SUM` become “number of”, “highest”…), the placeholders with
 * their comparison, and the entity each placeholder's table stands
 * for. Table names become singular nouns (`people` → “person”,
 * `companies` → “company”), and column names the noun phrases a person
 * would say, with the column's declared type from the schema:
 *
 * - words split and lowercased (`Graduation_College` → “graduation
 *   college”, `StartDate` → “start date”);
 * - codes in capitals and abbreviations spelt out (`isbn` → “ISBN”,
 *   `Company_ID` of a company → “ID”, `Email_Addr` → “email address”,
 *   `DOB` → “date of birth”, `num_awards` → “number of awards”);
 * - units in parentheses (`Sales_in_Billion` → “sales (in billions)”,
 *   `weight_kg` → “weight (in kg)”);
 * - a past participle made a noun by the type (`joined` DATE → “join
 *   date”, `born` DATE → “birth date”, `published` INTEGER →
 *   “publication year”, `paid` REAL → “amount paid”; without a schema,
 *   a date);
 * - a counted time unit in the plural (`Year_working` → “years
 *   working”), and the verb agreeing with the phrase's head (“what are
 *   the sales (in billions) of …”);
 * - the names ORMs and pandas write: `joined_on` → “join date”,
 *   `created_at` → “creation time”, `published_year` → “year of
 *   publication”, `approved_by` → “approver”, `author_full_name` → “the
 *   author's full name”, `tbl_suppliers` → “supplier”;
 * - a yes/no column (`is_active`, `has_parking`) asked as a yes/no
 *   question: “Is the customer named … active?”, “Tell me whether the
 *   store … has parking.”
 *
 * Rows are told apart by alias, not by table, and a joined row is named
 * by the column that points at it when that says more than its table
 * does: in `FROM employee e JOIN employee s ON e.supervisor_id =
 * s.employee_id WHERE e.name = '[employee.name]'`, `s.name` is “the name
 * of the supervisor of the employee named '[employee.name]'”. A code
 * (`isbn`, `country_code`), or a key of the same name on both sides
 * (`ba.isbn = b.isbn`), joins rows but names no role. A projection
 * from another table than the
 * placeholders' reads “the name of the client of the project …”; from
 * a table linking several, “the years working recorded for the company
 * … and the person …”. No frame chains bare nouns with “of the … for
 * the …”, whose “for” could attach to either.
 *
 * Each style has several sentence frames; each frame combines with
 * several ways of naming the entities and, when there are several, of
 * ordering them. Of all distinct combinations, the verbalizer picks
 * @n with a #GRand seeded from #GrammarRuleVerbalizer:seed, the
 * template id and the style, cycling over the frames so that variants
 * differ in structure before they differ in wording. A `long` text is
 * drawn instead: its context sentence (an opening and a continuation),
 * an optional sentence naming what is asked, its request and its closing
 * are each dealt from a shuffled deck, so that the texts of one template,
 * and of different templates, seldom share a frame. The same seed gives
 * the same texts, byte for byte, and the first @n texts for a larger @n
 * are the texts for @n.
 *
 * |[
 * SELECT Industry FROM company WHERE Name = '[company.Name]'
 *   short          Industry of company '[company.Name]'
 *   interrogative  What is the industry of the company named '[company.Name]'?
 *   directive      Tell me the industry of the company called '[company.Name]'.
 *   formal         Kindly state the industry of the company '[company.Name]'.
 *   casual         hey, what's the industry of '[company.Name]'?
 * ]|
 *
 * Placeholders keep the form the SQL gives them: quoted
 * (`'[company.Name]'`) when the SQL quotes them, bare otherwise. The
 * quotes around a value are chosen when it is filled in (see
 * grammar_text_template_fill()): `"Flann O'Brien"`, not `'Flann
 * O'Brien'`.
 */

/* Sentence frames per style */

static const GrammarRulesPattern interrogative_frames[] = {
  { "What %V %T?", 0 },
  { "Could you tell me %T?", 0 },
  { "Do you know %T?", 0 },
  { "Can you find %T?", 0 },
  { "May I know %T?", 0 },
  { "Would you tell me %T?", 0 },
  { "For %E, what %V %R?", NEEDS_NOT_COUNTED },
  { "What %V %R recorded for %E?", NEEDS_NOT_COUNTED | NEEDS_BARE_RELATIVE },
  { "What %A does %E have?", NEEDS_PLAIN | NEEDS_SIMPLE | NEEDS_SINGULAR | NEEDS_NOT_COUNTED },
  { "How many %E are there?", NEEDS_COUNTED },
  { NULL, 0 }
};

static const GrammarRulesPattern directive_frames[] = {
  { "Tell me %T.", 0 },
  { "Find %T.", 0 },
  { "Retrieve %T.", 0 },
  { "Look up %T.", 0 },
  { "Give me %T.", 0 },
  { "Show me %T.", 0 },
  { "Get %T.", 0 },
  { "Identify %T.", 0 },
  { "Determine %T.", 0 },
  { "For %E, give me %R.", NEEDS_NOT_COUNTED },
  { "Find out %R recorded for %E.", NEEDS_NOT_COUNTED | NEEDS_BARE_RELATIVE },
  { "Count %E.", NEEDS_COUNTED },
  { NULL, 0 }
};

static const GrammarRulesPattern formal_frames[] = {
  { "Kindly state %T.", 0 },
  { "Please provide %T.", 0 },
  { "I would like to request %T.", 0 },
  { "Would you kindly indicate %T?", 0 },
  { "I would be grateful if you could provide %T.", 0 },
  { "Please be so kind as to specify %T.", 0 },
  { "May I request %T?", 0 },
  { "It would be appreciated if you could confirm %T.", 0 },
  { "With regard to %E, kindly state %R.", NEEDS_NOT_COUNTED },
  { "Kindly state how many %E there are.", NEEDS_COUNTED },
  { NULL, 0 }
};

static const GrammarRulesPattern casual_frames[] = {
  { "hey, %W %T?", 0 },
  { "so %W %T?", 0 },
  { "any idea what %T %V?", 0 },
  { "quick question: %W %T?", 0 },
  { "%W %T again?", 0 },
  { "mind telling me %T?", 0 },
  { "need %T, thanks!", 0 },
  { "got %T handy?", 0 },
  { "so for %E, %W %R?", NEEDS_NOT_COUNTED },
  { "how many %E are there?", NEEDS_COUNTED },
  { NULL, 0 }
};

/* The paper's short examples are bare fragments; with a question mark
 * they are a fallback for when more variants are asked than that. */
static const GrammarRulesPattern short_frames[] = { { "%T", 0 }, { "%T?", 0 }, { NULL, 0 } };

/* Yes/no columns (`is_active`, `has_parking`): %T is “whether the
 * customer … is active”, %I the question “is the customer … active”. */
static const GrammarRulesPattern interrogative_yes_no[] = {
  { "%I?", 0 },
  { "Could you tell me %T?", 0 },
  { "Do you know %T?", 0 },
  { "Can you check %T?", 0 },
  { "May I know %T?", 0 },
  { "Would you tell me %T?", 0 },
  { "According to the records, %I?", 0 },
  { NULL, 0 }
};

static const GrammarRulesPattern directive_yes_no[] = {
  { "Tell me %T.", 0 },
  { "Find out %T.", 0 },
  { "Check %T.", 0 },
  { "Look up %T.", 0 },
  { "Confirm %T.", 0 },
  { "Determine %T.", 0 },
  { "Establish %T.", 0 },
  { NULL, 0 }
};

static const GrammarRulesPattern formal_yes_no[] = {
  { "Kindly state %T.", 0 },
  { "Please indicate %T.", 0 },
  { "I would like to know %T.", 0 },
  { "Would you kindly confirm %T?", 0 },
  { "I would be grateful if you could confirm %T.", 0 },
  { "Please be so kind as to specify %T.", 0 },
  { "May I ask %T?", 0 },
  { "It would be appreciated if you could confirm %T.", 0 },
  { NULL, 0 }
};

static const GrammarRulesPattern casual_yes_no[] = {
  { "hey, %I?", 0 },
  { "so %I?", 0 },
  { "any idea %T?", 0 },
  { "quick question: %I?", 0 },
  { "do you know %T?", 0 },
  { "mind telling me %T?", 0 },
  { "%I, do you know?", 0 },
  { NULL, 0 }
};

static const GrammarRulesPattern short_yes_no[] = { { "%I?", 0 }, { "%T", 0 }, { NULL, 0 } };

/* The long style: a sentence of context, made of an opening and its
 * continuation, sometimes a sentence saying what is asked, the request,
 * and a closing; each part is drawn with the seed, so that two texts of
 * one template rarely share their frame and texts of different
 * templates do not repeat the same few sentences. The closings also
 * make up the 30 words when needed. */
static const char * const long_openings[] = {
  "As I am going through the information that we keep about each %O in our records",
  "While reviewing the %O entries in our database",
  "As part of a routine check of the data that we hold on every %O",
  "Since I am updating the notes that my team keeps about our records",
  "Before a meeting with my colleagues later this week",
  "Because a colleague asked me a question this morning",
  "While preparing a short summary for my manager",
  "In the course of checking the figures in our system",
  "Having just started to work with this database",
  "As I was cleaning up an old spreadsheet that was copied from our records",
  "While answering a request that came in through our support channel",
  "To finish an overview of the %O data that I started last week",
};

static const char * const long_continuations[] = {
  ", I noticed that one detail is missing from my notes.",
  ", I realised that I still need to confirm one particular detail.",
  ", I found that there is one piece of information I have to check.",
  ", I came across a question that I cannot answer on my own.",
  ", I want to make sure that I have one fact exactly right.",
  ", I would like to double-check one value before I go on.",
  ", I ran into a gap in what I know and hope you can fill it.",
  ", I need a single detail that I have not been able to find so far.",
};

static const char * const long_focuses[] = {
  "",
  " My question concerns the %A.",
  " The detail I am after is the %A.",
  " It is about the %A, nothing more.",
};

static const char * const long_requests[] = {
  "Could you tell me %T, based on what is currently stored?",
  "What %V %T, according to the records that we have?",
  "I would like to know %T, so that my notes are complete and accurate.",
  "Please look up %T and let me know what the records say.",
  "Can you find %T for me and share the answer when you have it?",
  "Would you be able to check %T in the database?",
  "I need to find out %T before I can move on with my work.",
  "Do you happen to know %T, as it is recorded in the system?",
  "Please tell me %T, since I could not find it myself.",
  "Let me know %T, if you can find it in the data.",
};

static const char * const long_yes_no_requests[] = {
  "Could you tell me %T, based on what is currently stored?",
  "%I, according to the records that we have?",
  "I would like to know %T, so that my notes are complete and accurate.",
  "Please look up %T and let me know what the records say.",
  "Can you find out %T for me and share the answer when you have it?",
  "Would you be able to check %T in the database?",
  "I need to find out %T before I can move on with my work.",
  "Do you happen to know %T, as it is recorded in the system?",
  "Please tell me %T, since I could not find it myself.",
  "Let me know %T, if you can find it in the data.",
};

static const char * const long_closings[] = {
  "",
  " Thank you in advance for your help.",
  " It matters that the answer comes from the stored records rather than from a guess.",
  " A short answer is enough.",
  " Many thanks for taking the time to look into this.",
  " If the records do not say, please tell me so.",
  " I will pass the answer on to the people who asked me.",
  " I appreciate your help with this.",
};

/* The most long texts made for one template: they are drawn, not
 * enumerated, and some 10^5 combinations exist. */
#define LONG_MAX_TEXTS 200

static void
candidate_clear (gpointer data)
{
  g_free (((GrammarRulesCandidate *) data)->text);
}

static void
group_free (gpointer data)
{
  GrammarRulesGroup *group = data;

  g_array_unref (group->items);
  g_free (group);
}

static void
candidates_init (GrammarRulesCandidates *candidates)
{
  candidates->groups = g_ptr_array_new_with_free_func (group_free);
  candidates->seen = g_hash_table_new (g_str_hash, g_str_equal);
}

static void
candidates_clear (GrammarRulesCandidates *candidates)
{
  g_hash_table_unref (candidates->seen);
  g_ptr_array_unref (candidates->groups);
}

static GrammarRulesGroup *
candidates_group (GrammarRulesCandidates *candidates,
                  guint                   key)
{
  while (candidates->groups->len <= key)
    {
      GrammarRulesGroup *group = g_new0 (GrammarRulesGroup, 1);

      group->items = g_array_new (FALSE, FALSE, sizeof (GrammarRulesCandidate));
      g_array_set_clear_func (group->items, candidate_clear);
      g_ptr_array_add (candidates->groups, group);
    }
  return g_ptr_array_index (candidates->groups, key);
}

/* Adds @text (taking it) unless an identical text is there already. */
static void
candidates_add (GrammarRulesCandidates *candidates,
                guint                   key,
                guint                   tier,
                guint                   sub,
                char                   *text,
                gboolean                capitalize)
{
  GrammarRulesGroup *group = candidates_group (candidates, key);
  GrammarRulesCandidate candidate = { text, sub, FALSE };

  group->tier = tier;
  if (capitalize && g_ascii_islower (text[0]))
    text[0] = g_ascii_toupper (text[0]);
  if (g_hash_table_contains (candidates->seen, text))
    {
      g_free (text);
      return;
    }
  g_hash_table_add (candidates->seen, text);
  g_array_append_val (group->items, candidate);
}

static void
fill_common_slots (GrammarRulesSlots       *slots,
                   GrammarRulesMeaning     *meaning,
                   GrammarRulesRealization *realization)
{
  grammar_rules_slot_set (slots, 'A', meaning->attribute);
  grammar_rules_slot_set (slots, 'O', meaning->owner != NULL ? meaning->owner : "record");
  grammar_rules_slot_set (slots, 'V', meaning->plural ? "are" : "is");
  grammar_rules_slot_set (slots, 'W', meaning->plural ? "what are" : "what's");
  grammar_rules_slot_set (slots, 'T', realization->target);
  grammar_rules_slot_set (slots, 'E', realization->entities);
  grammar_rules_slot_set (slots, 'R', realization->relative);
  grammar_rules_slot_set (slots, 'I', realization->question);
}

static void
add_framed (GrammarRulesCandidates    *candidates,
            GrammarRulesMeaning       *meaning,
            GPtrArray                 *realizations,
            const GrammarRulesPattern *frames,
            gboolean                   capitalize)
{
  for (guint f = 0; frames[f].format != NULL; f++)
    {
      if (!grammar_rules_pattern_applies (frames[f].needs, meaning, TRUE, NULL))
        continue;
      for (guint r = 0; r < realizations->len; r++)
        {
          GrammarRulesRealization *realization = g_ptr_array_index (realizations, r);
          GrammarRulesSlots slots = { { NULL } };

          fill_common_slots (&slots, meaning, realization);
          candidates_add (candidates, f, 0, realization->pattern,
                          grammar_rules_expand (frames[f].format, &slots), capitalize);
        }
    }
}

/* A deck of @size indexes dealt in a shuffled order, shuffled again
 * once dealt out: parts repeat only after all were used. */
typedef struct
{
  guint size;
  guint next;
  guint *order;
} Deck;

static void
deck_init (Deck  *deck,
           guint  size)
{
  deck->size = size;
  deck->next = size;
  deck->order = g_new (guint, MAX (size, 1));
  for (guint i = 0; i < size; i++)
    deck->order[i] = i;
}

static guint
deck_deal (Deck  *deck,
           GRand *rand)
{
  if (deck->next >= deck->size)
    {
      for (guint i = deck->size; i > 1; i--)
        {
          guint j = g_rand_int_range (rand, 0, i);
          guint swap = deck->order[i - 1];

          deck->order[i - 1] = deck->order[j];
          deck->order[j] = swap;
        }
      deck->next = 0;
    }
  return deck->order[deck->next++];
}

static void
deck_clear (Deck *deck)
{
  g_free (deck->order);
}

static void
capitalize_at (GString *text,
               gsize    at)
{
  if (at < text->len && g_ascii_islower (text->str[at]))
    text->str[at] = g_ascii_toupper (text->str[at]);
}

/* Up to @n distinct long texts, each drawn from the parts above. */
static GPtrArray *
make_long (GrammarRulesMeaning *meaning,
           GPtrArray           *realizations,
           GRand               *rand,
           guint                n)
{
  gboolean yes_no = meaning->statement != NULL;
  const char * const *requests = yes_no ? long_yes_no_requests : long_requests;
  guint n_requests = yes_no ? G_N_ELEMENTS (long_yes_no_requests) : G_N_ELEMENTS (long_requests);
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *texts = g_ptr_array_new_with_free_func (g_free);
  Deck openings, continuations, focuses, request_deck, closings, targets;
  guint limit = MIN (n, LONG_MAX_TEXTS);

  if (realizations->len == 0)
    return texts;
  deck_init (&openings, G_N_ELEMENTS (long_openings));
  deck_init (&continuations, G_N_ELEMENTS (long_continuations));
  deck_init (&focuses, G_N_ELEMENTS (long_focuses));
  deck_init (&request_deck, n_requests);
  deck_init (&closings, G_N_ELEMENTS (long_closings));
  deck_init (&targets, realizations->len);
  for (guint attempt = 0; texts->len < limit && attempt < 4 * limit; attempt++)
    {
      GrammarRulesRealization *realization = g_ptr_array_index (realizations, deck_deal (&targets, rand));
      guint opening = deck_deal (&openings, rand);
      guint continuation = deck_deal (&continuations, rand);
      guint focus = deck_deal (&focuses, rand);
      guint request = deck_deal (&request_deck, rand);
      guint closing = deck_deal (&closings, rand);
      GrammarRulesSlots slots = { { NULL } };
      GString *text = g_string_new (NULL);
      g_autofree char *made = NULL;

      grammar_rules_slot_set (&slots, 'A', meaning->attribute);
      grammar_rules_slot_set (&slots, 'O', meaning->owner != NULL ? meaning->owner : "record");
      grammar_rules_slot_set (&slots, 'V', meaning->plural ? "are" : "is");
      grammar_rules_slot_set (&slots, 'T', realization->target);
      grammar_rules_slot_set (&slots, 'I', realization->question);
      g_string_append (text, long_openings[opening]);
      g_string_append (text, long_continuations[continuation]);
      g_string_append (text, long_focuses[focus]);
      g_string_append_c (text, ' ');
      g_string_append (text, requests[request]);
      g_string_append (text, long_closings[closing]);
      made = grammar_rules_expand (text->str, &slots);
      g_string_assign (text, made);
      /* %O may open nothing, but %I opens the request: a capital. */
      capitalize_at (text, 0);
      if (requests[request][0] == '%')
        {
          g_autofree char *before = NULL;
          g_autoptr (GString) head = g_string_new (long_openings[opening]);

          g_string_append (head, long_continuations[continuation]);
          g_string_append (head, long_focuses[focus]);
          g_string_append_c (head, ' ');
          before = grammar_rules_expand (head->str, &slots);
          capitalize_at (text, strlen (before));
        }
      for (guint k = 1; grammar_text_count_words (text->str) < LONG_MIN_WORDS && k < G_N_ELEMENTS (long_closings); k++)
        if (k != closing)
          g_string_append (text, long_closings[k]);
      if (g_hash_table_contains (seen, text->str))
        {
          g_string_free (text, TRUE);
          continue;
        }
      g_ptr_array_add (texts, g_string_free (text, FALSE));
      g_hash_table_add (seen, g_ptr_array_index (texts, texts->len - 1));
    }
  deck_clear (&openings);
  deck_clear (&continuations);
  deck_clear (&focuses);
  deck_clear (&request_deck);
  deck_clear (&closings);
  deck_clear (&targets);
  return texts;
}

static void
add_short (GrammarRulesCandidates *candidates,
           GrammarRulesMeaning    *meaning)
{
  g_autoptr (GPtrArray) realizations = grammar_rules_realize (meaning, REGISTER_SHORT);

  guint n_patterns = 0;

  for (guint r = 0; r < realizations->len; r++)
    n_patterns = MAX (n_patterns, ((GrammarRulesRealization *) g_ptr_array_index (realizations, r))->pattern + 1);
  const GrammarRulesPattern *frames = meaning->statement != NULL ? short_yes_no : short_frames;

  /* Grouped by target pattern, so that structures vary first. */
  for (guint f = 0; frames[f].format != NULL; f++)
    for (guint r = 0; r < realizations->len; r++)
      {
        GrammarRulesRealization *realization = g_ptr_array_index (realizations, r);
        GrammarRulesSlots slots = { { NULL } };

        grammar_rules_slot_set (&slots, 'T', realization->target);
        grammar_rules_slot_set (&slots, 'I', realization->question);
        candidates_add (candidates, f * n_patterns + realization->pattern, f, 0,
                        grammar_rules_expand (frames[f].format, &slots), TRUE);
      }
}

static void
collect_candidates (GrammarRulesCandidates *candidates,
                    GrammarRulesMeaning    *meaning,
                    const char             *style)
{
  g_autoptr (GPtrArray) full = NULL;
  g_autoptr (GPtrArray) casual = NULL;
  gboolean yes_no = meaning->statement != NULL;

  if (g_str_equal (style, "short"))
    {
      add_short (candidates, meaning);
      return;
    }
  if (g_str_equal (style, "casual"))
    {
      casual = grammar_rules_realize (meaning, REGISTER_CASUAL);
      add_framed (candidates, meaning, casual, yes_no ? casual_yes_no : casual_frames, FALSE);
      return;
    }
  full = grammar_rules_realize (meaning, REGISTER_FULL);
  if (g_str_equal (style, "interrogative"))
    add_framed (candidates, meaning, full, yes_no ? interrogative_yes_no : interrogative_frames, TRUE);
  else if (g_str_equal (style, "directive"))
    add_framed (candidates, meaning, full, yes_no ? directive_yes_no : directive_frames, TRUE);
  else
    add_framed (candidates, meaning, full, yes_no ? formal_yes_no : formal_frames, TRUE);
}

/* Picking */

static void
shuffle_pointers (GPtrArray *array,
                  GRand     *rand)
{
  for (guint i = array->len; i > 1; i--)
    {
      guint j = g_rand_int_range (rand, 0, i);
      gpointer swap = array->pdata[i - 1];

      array->pdata[i - 1] = array->pdata[j];
      array->pdata[j] = swap;
    }
}

static void
shuffle_candidates (GArray *items,
                    GRand  *rand)
{
  for (guint i = items->len; i > 1; i--)
    {
      guint j = g_rand_int_range (rand, 0, i);
      GrammarRulesCandidate swap = g_array_index (items, GrammarRulesCandidate, i - 1);

      g_array_index (items, GrammarRulesCandidate, i - 1) = g_array_index (items, GrammarRulesCandidate, j);
      g_array_index (items, GrammarRulesCandidate, j) = swap;
    }
}

/* The next text of @group: the first not yet picked whose sub-key is not
 * among @used_subs, else the first not yet picked. */
static GrammarRulesCandidate *
next_of_group (GrammarRulesGroup *group,
               GHashTable        *used_subs)
{
  GrammarRulesCandidate *fallback = NULL;

  for (guint i = 0; i < group->items->len; i++)
    {
      GrammarRulesCandidate *candidate = &g_array_index (group->items, GrammarRulesCandidate, i);

      if (candidate->picked)
        continue;
      if (!g_hash_table_contains (used_subs, GUINT_TO_POINTER (candidate->sub + 1)))
        return candidate;
      if (fallback == NULL)
        fallback = candidate;
    }
  return fallback;
}

/* Takes one text of each group of @tier in turn, in a shuffled order of
 * groups, so that variants differ in structure before they differ in
 * wording. Returns FALSE once the tier has nothing left. */
static gboolean
pick_round (GPtrArray  *groups,
            guint       tier,
            GHashTable *used_subs,
            GPtrArray  *picked)
{
  gboolean any = FALSE;

  for (guint g = 0; g < groups->len; g++)
    {
      GrammarRulesGroup *group = g_ptr_array_index (groups, g);
      GrammarRulesCandidate *candidate;

      if (group->tier != tier || (candidate = next_of_group (group, used_subs)) == NULL)
        continue;
      candidate->picked = TRUE;
      g_hash_table_add (used_subs, GUINT_TO_POINTER (candidate->sub + 1));
      g_ptr_array_add (picked, candidate->text);
      any = TRUE;
    }
  return any;
}

/* Every text, in the order to take them. The texts stay owned by
 * @candidates. */
static GPtrArray *
pick (GrammarRulesCandidates *candidates,
      GRand                  *rand)
{
  g_autoptr (GPtrArray) groups = g_ptr_array_new ();
  GPtrArray *picked = g_ptr_array_new ();
  guint max_tier = 0;

  for (guint g = 0; g < candidates->groups->len; g++)
    {
      GrammarRulesGroup *group = g_ptr_array_index (candidates->groups, g);

      shuffle_candidates (group->items, rand);
      g_ptr_array_add (groups, group);
      max_tier = MAX (max_tier, group->tier);
    }
  shuffle_pointers (groups, rand);

  for (guint tier = 0; tier <= max_tier; tier++)
    {
      g_autoptr (GHashTable) used_subs = g_hash_table_new (NULL, NULL);

      /* Sub-keys vary within a round; the next round starts afresh. */
      while (pick_round (groups, tier, used_subs, picked))
        g_hash_table_remove_all (used_subs);
    }
  return picked;
}

static GRand *
rand_for (guint64             seed,
          GrammarSqlTemplate *sql_template,
          const char         *style)
{
  guint32 words[4] = {
    (guint32) (seed & 0xffffffffu),
    (guint32) (seed >> 32),
    g_str_hash (grammar_sql_template_get_id (sql_template)),
    g_str_hash (style),
  };

  return g_rand_new_with_seed_array (words, G_N_ELEMENTS (words));
}

/* The object */

static void grammar_rule_verbalizer_verbalizer_init (GrammarVerbalizerInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (GrammarRuleVerbalizer, grammar_rule_verbalizer, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GRAMMAR_TYPE_VERBALIZER,
                                                      grammar_rule_verbalizer_verbalizer_init))

enum {
  PROP_0,
  PROP_SCHEMA,
  PROP_SEED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
grammar_rule_verbalizer_dispose (GObject *object)
{
  GrammarRuleVerbalizer *self = GRAMMAR_RULE_VERBALIZER (object);

  g_clear_object (&self->schema);

  G_OBJECT_CLASS (grammar_rule_verbalizer_parent_class)->dispose (object);
}

static void
grammar_rule_verbalizer_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  GrammarRuleVerbalizer *self = GRAMMAR_RULE_VERBALIZER (object);

  switch (prop_id)
    {
    case PROP_SCHEMA:
      g_value_set_object (value, self->schema);
      break;
    case PROP_SEED:
      g_value_set_uint64 (value, self->seed);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_rule_verbalizer_set_property (GObject      *object,
                                      guint         prop_id,
                                      const GValue *value,
                                      GParamSpec   *pspec)
{
  GrammarRuleVerbalizer *self = GRAMMAR_RULE_VERBALIZER (object);

  switch (prop_id)
    {
    case PROP_SCHEMA:
      self->schema = g_value_dup_object (value);
      break;
    case PROP_SEED:
      grammar_rule_verbalizer_set_seed (self, g_value_get_uint64 (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
grammar_rule_verbalizer_class_init (GrammarRuleVerbalizerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = grammar_rule_verbalizer_dispose;
  object_class->get_property = grammar_rule_verbalizer_get_property;
  object_class->set_property = grammar_rule_verbalizer_set_property;

  /**
   * GrammarRuleVerbalizer:schema:
   *
   * The schema of the templates' database, or %NULL. With it, a
   * projected column that names no table is found in the joined table
   * that has it.
   */
  properties[PROP_SCHEMA] =
    g_param_spec_object ("schema", NULL, NULL, GRAMMAR_TYPE_SCHEMA,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /**
   * GrammarRuleVerbalizer:seed:
   *
   * The seed of the choice among the variants; with the same seed, the
   * same template and style give the same texts.
   */
  properties[PROP_SEED] =
    g_param_spec_uint64 ("seed", NULL, NULL, 0, G_MAXUINT64, 0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
grammar_rule_verbalizer_init (GrammarRuleVerbalizer *self)
{
}

/**
 * grammar_rule_verbalizer_new:
 * @schema: (nullable): the schema of the templates' database
 *
 * Returns: (transfer full): a new #GrammarRuleVerbalizer with seed 0
 */
GrammarRuleVerbalizer *
grammar_rule_verbalizer_new (GrammarSchema *schema)
{
  g_return_val_if_fail (schema == NULL || GRAMMAR_IS_SCHEMA (schema), NULL);

  return g_object_new (GRAMMAR_TYPE_RULE_VERBALIZER, "schema", schema, NULL);
}

/**
 * grammar_rule_verbalizer_get_schema:
 * @self: a #GrammarRuleVerbalizer
 *
 * Returns: (transfer none) (nullable): the schema, or %NULL
 */
GrammarSchema *
grammar_rule_verbalizer_get_schema (GrammarRuleVerbalizer *self)
{
  g_return_val_if_fail (GRAMMAR_IS_RULE_VERBALIZER (self), NULL);
  return self->schema;
}

/**
 * grammar_rule_verbalizer_get_seed:
 * @self: a #GrammarRuleVerbalizer
 *
 * Returns: the seed
 */
guint64
grammar_rule_verbalizer_get_seed (GrammarRuleVerbalizer *self)
{
  g_return_val_if_fail (GRAMMAR_IS_RULE_VERBALIZER (self), 0);
  return self->seed;
}

/**
 * grammar_rule_verbalizer_set_seed:
 * @self: a #GrammarRuleVerbalizer
 * @seed: the seed
 *
 * Sets #GrammarRuleVerbalizer:seed.
 */
void
grammar_rule_verbalizer_set_seed (GrammarRuleVerbalizer *self,
                                  guint64                seed)
{
  g_return_if_fail (GRAMMAR_IS_RULE_VERBALIZER (self));

  if (self->seed == seed)
    return;
  self->seed = seed;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SEED]);
}

/**
 * grammar_rule_verbalizer_verbalize:
 * @self: a #GrammarRuleVerbalizer
 * @sql_template: the SQL template
 * @style: one of grammar_text_style_list()
 * @n: how many distinct text templates to make
 * @error: return location for a #GError
 *
 * Makes @n distinct text templates of @sql_template in @style. When the
 * rules know fewer than @n distinct variants, all of them are returned:
 * compare the length of the result with @n to report it. Every text
 * passes grammar_text_template_check_placeholders(); `long` ones have at
 * least 30 words, `interrogative` ones end with a question mark.
 *
 * Returns: (transfer container) (element-type GrammarTextTemplate) (nullable): the
 *   text templates, or %NULL with a %GRAMMAR_ERROR_INVALID_INPUT error for
 *   an unknown style
 */
GPtrArray *
grammar_rule_verbalizer_verbalize (GrammarRuleVerbalizer *self,
                                   GrammarSqlTemplate    *sql_template,
                                   const char            *style,
                                   guint                  n,
                                   GError               **error)
{
  g_autoptr (GrammarRulesMeaning) meaning = NULL;
  g_autoptr (GRand) rand = NULL;
  g_autoptr (GPtrArray) picked = NULL;
  g_autoptr (GPtrArray) long_texts = NULL;
  GPtrArray *text_templates;
  const char *id;
  GrammarRulesCandidates candidates;

  g_return_val_if_fail (GRAMMAR_IS_RULE_VERBALIZER (self), NULL);
  g_return_val_if_fail (GRAMMAR_IS_SQL_TEMPLATE (sql_template), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!grammar_text_style_check (style, error))
    return NULL;

  id = grammar_sql_template_get_id (sql_template);
  meaning = grammar_rules_meaning_new (sql_template, self->schema);
  rand = rand_for (self->seed, sql_template, style);
  candidates_init (&candidates);
  if (g_str_equal (style, "long"))
    {
      g_autoptr (GPtrArray) full = grammar_rules_realize (meaning, REGISTER_FULL);

      /* Drawn in order, a few more than asked for: a text that fails
       * the check below makes room for the next. */
      long_texts = make_long (meaning, full, rand, n < G_MAXUINT - 8 ? n + 8 : n);
      picked = g_ptr_array_ref (long_texts);
    }
  else
    {
      collect_candidates (&candidates, meaning, style);
      /* All of them in picking order: a text that fails the check below
       * makes room for the next. */
      picked = pick (&candidates, rand);
    }

  text_templates = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < picked->len && text_templates->len < n; i++)
    {
      g_autoptr (GrammarTextTemplate) text_template = grammar_text_template_new (id, style, g_ptr_array_index (picked, i));
      g_autoptr (GError) local_error = NULL;

      /* The rules cannot lose a placeholder; should a template's SQL
       * still defeat them, a text that fails is left out rather than
       * written. */
      if (!grammar_text_template_check_placeholders (text_template, sql_template, &local_error))
        {
          g_debug ("%s: dropped “%s”: %s", id, (const char *) g_ptr_array_index (picked, i), local_error->message);
          continue;
        }
      g_ptr_array_add (text_templates, g_steal_pointer (&text_template));
    }
  candidates_clear (&candidates);
  return text_templates;
}

/* GrammarVerbalizer: the rules answer at once. A verbalizer built from a
 * keyfile section has no schema yet: the one it is given becomes its
 * own. */
static void
grammar_rule_verbalizer_verbalize_async (GrammarVerbalizer    *verbalizer,
                                         GrammarSqlTemplate   *sql_template,
                                         GrammarSchema        *schema,
                                         const char           *style,
                                         guint                 n,
                                         GCancellable         *cancellable,
                                         GAsyncReadyCallback   callback,
                                         gpointer              user_data)
{
  GrammarRuleVerbalizer *self = GRAMMAR_RULE_VERBALIZER (verbalizer);
  g_autoptr (GTask) task = g_task_new (self, cancellable, callback, user_data);
  GError *error = NULL;
  GPtrArray *made;

  if (self->schema == NULL)
    self->schema = g_object_ref (schema);
  made = grammar_rule_verbalizer_verbalize (self, sql_template, style, n, &error);
  if (made != NULL)
    g_task_return_pointer (task, made, (GDestroyNotify) g_ptr_array_unref);
  else
    g_task_return_error (task, error);
}

static GPtrArray *
grammar_rule_verbalizer_verbalize_finish (GrammarVerbalizer  *verbalizer,
                                          GAsyncResult       *result,
                                          GStrv              *dropped,
                                          GError            **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
grammar_rule_verbalizer_verbalizer_init (GrammarVerbalizerInterface *iface)
{
  iface->verbalize_async = grammar_rule_verbalizer_verbalize_async;
  iface->verbalize_finish = grammar_rule_verbalizer_verbalize_finish;
}
