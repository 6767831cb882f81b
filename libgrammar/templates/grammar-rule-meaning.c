/* grammar-rule-meaning.c: what a SQL template asks, read for the rule verbalizer: projections, tables, conditions
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>
#include "grammar-rule-verbalizer-private.h"
#include "grammar-error.h"
#include "grammar-rule-verbalizer.h"
#include "grammar-sql-lexer-private.h"

/* What a template asks */

static void
entity_free (gpointer data)
{
  GrammarRulesEntity *entity = data;

  g_free (entity->written);
  g_free (entity->table);
  g_free (entity->noun);
  g_free (entity->column);
  g_free (entity->qualifier);
  g_free (entity);
}

void
grammar_rules_meaning_free (GrammarRulesMeaning *meaning)
{
  g_free (meaning->attribute);
  g_free (meaning->owner);
  g_free (meaning->statement);
  g_free (meaning->auxiliary);
  g_free (meaning->predicate);
  g_ptr_array_unref (meaning->entities);
  g_free (meaning);
}

static gboolean
comparison_from_token (GrammarRulesToken      *token,
                       gboolean                mirrored,
                       GrammarRulesComparison *comparison)
{
  static const struct { const char *symbol; GrammarRulesComparison comparison, mirror; } symbols[] = {
    { "=", COMPARISON_EQ, COMPARISON_EQ }, { "==", COMPARISON_EQ, COMPARISON_EQ },
    { "!=", COMPARISON_NE, COMPARISON_NE }, { "<>", COMPARISON_NE, COMPARISON_NE },
    { "<", COMPARISON_LT, COMPARISON_GT }, { "<=", COMPARISON_LE, COMPARISON_GE },
    { ">", COMPARISON_GT, COMPARISON_LT }, { ">=", COMPARISON_GE, COMPARISON_LE },
  };

  if (grammar_rules_is_word (token, "like") || grammar_rules_is_word (token, "glob"))
    {
      *comparison = COMPARISON_LIKE;
      return TRUE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (symbols); i++)
    if (grammar_rules_is_symbol (token, symbols[i].symbol))
      {
        *comparison = mirrored ? symbols[i].mirror : symbols[i].comparison;
        return TRUE;
      }
  return FALSE;
}

/* Fills how @entity is written and compared, and the alias of the
 * column it is compared with, from its first occurrence. */
static void
find_occurrence (GArray             *tokens,
                 const char         *placeholder,
                 GrammarRulesEntity *entity)
{
  entity->written = g_strdup (placeholder);
  entity->comparison = COMPARISON_EQ;
  for (guint i = 0; i < tokens->len; i++)
    {
      GrammarRulesToken *token = grammar_rules_token_at (tokens, i);

      if (token->kind != TOKEN_PLACEHOLDER || g_ascii_strcasecmp (token->text, placeholder) != 0)
        continue;
      if (token->quoted)
        {
          g_free (entity->written);
          entity->written = g_strdup_printf ("'%s'", placeholder);
        }
      if (i > 0 && comparison_from_token (grammar_rules_token_at (tokens, i - 1), FALSE, &entity->comparison))
        {
          /* t.col = [T.C] */
          if (i >= 4 && grammar_rules_is_name (grammar_rules_token_at (tokens, i - 2)) && grammar_rules_is_symbol (grammar_rules_token_at (tokens, i - 3), ".") &&
              grammar_rules_is_name (grammar_rules_token_at (tokens, i - 4)))
            entity->qualifier = g_strdup (grammar_rules_token_at (tokens, i - 4)->text);
        }
      else if (comparison_from_token (grammar_rules_token_at (tokens, i + 1), TRUE, &entity->comparison))
        {
          /* [T.C] = t.col */
          if (grammar_rules_is_name (grammar_rules_token_at (tokens, i + 2)) && grammar_rules_is_symbol (grammar_rules_token_at (tokens, i + 3), ".") &&
              grammar_rules_is_name (grammar_rules_token_at (tokens, i + 4)))
            entity->qualifier = g_strdup (grammar_rules_token_at (tokens, i + 2)->text);
        }
      return;
    }
}

/* Whether @column is the entity's @what: `name`, or its noun's (`item
 * name` of an “order item”, `project name` of a “project”). */
static gboolean
is_own (const char *column,
        const char *what,
        const char *noun)
{
  gsize len = strlen (column), what_len = strlen (what);
  g_autofree char *owner = NULL;

  if (g_str_equal (column, what))
    return TRUE;
  if (len <= what_len + 1 || !g_str_has_suffix (column, what) || column[len - what_len - 1] != ' ')
    return FALSE;
  owner = g_strndup (column, len - what_len - 1);
  return g_str_equal (noun, owner) ||
         (g_str_has_suffix (noun, owner) && noun[strlen (noun) - strlen (owner) - 1] == ' ');
}

/* A name as the schema spells it: without its quotes. */
static char *
bare_name (const char *name)
{
  gsize len = strlen (name);

  if (len >= 2 && strchr ("\"`[", name[0]) != NULL && name[len - 1] == (name[0] == '[' ? ']' : name[0]))
    return g_strndup (name + 1, len - 2);
  return g_strdup (name);
}

/* What @column of @table holds, by its declared type in @schema. */
static GrammarRulesValueKind
column_kind (GrammarSchema *schema,
             const char    *table,
             const char    *column)
{
  g_autofree char *table_name = NULL;
  g_autofree char *column_name = NULL;
  GrammarTable *found;
  GrammarColumn *declared;

  if (schema == NULL || table == NULL || column == NULL)
    return VALUE_KIND_UNKNOWN;
  table_name = bare_name (table);
  column_name = bare_name (column);
  found = grammar_schema_get_table (schema, table_name);
  declared = found != NULL ? grammar_table_get_column (found, column_name) : NULL;
  return declared != NULL ? grammar_rules_value_kind (grammar_column_get_declared_type (declared)) :
                            VALUE_KIND_UNKNOWN;
}

static GPtrArray *
read_entities (GrammarSqlTemplate *sql_template,
               GrammarSchema      *schema,
               GArray             *tokens)
{
  GPtrArray *entities = g_ptr_array_new_with_free_func (entity_free);

  for (guint i = 0; i < grammar_sql_template_get_n_placeholders (sql_template); i++)
    {
      GrammarRulesEntity *entity = g_new0 (GrammarRulesEntity, 1);
      const char *column = grammar_sql_template_get_placeholder_column (sql_template, i);

      entity->table = g_strdup (grammar_sql_template_get_placeholder_table (sql_template, i));
      entity->noun = grammar_rule_verbalizer_entity_noun (entity->table);
      entity->column = grammar_rules_column_phrase (column, column_kind (schema, entity->table, column),
                                                    entity->noun);
      entity->column_plural = grammar_rules_phrase_is_plural (entity->column);
      find_occurrence (tokens, grammar_sql_template_get_placeholder (sql_template, i), entity);
      if (entity->comparison == COMPARISON_EQ &&
          (is_own (entity->column, "name", entity->noun) || g_str_equal (entity->column, "full name")))
        entity->naming = "named";
      else if (entity->comparison == COMPARISON_EQ && is_own (entity->column, "title", entity->noun))
        entity->naming = "titled";
      g_ptr_array_add (entities, entity);
    }
  return entities;
}

/* The table reference @name stands for: an alias, else a table name. */
static GrammarRulesTableRef *
lookup_ref (GPtrArray  *refs,
            const char *name)
{
  for (guint i = 0; i < refs->len; i++)
    {
      GrammarRulesTableRef *ref = g_ptr_array_index (refs, i);

      if (ref->alias != NULL && g_ascii_strcasecmp (ref->alias, name) == 0)
        return ref;
    }
  for (guint i = 0; i < refs->len; i++)
    {
      GrammarRulesTableRef *ref = g_ptr_array_index (refs, i);

      if (g_ascii_strcasecmp (ref->table, name) == 0)
        return ref;
    }
  return NULL;
}

/* The row a projected column is read from: its qualifier through the
 * aliases, else the only table, else (with a schema) the first table
 * that has the column, else the first table. */
static GrammarRulesTableRef *
resolve_ref (GPtrArray              *refs,
             GrammarRulesProjection *projection,
             GrammarSchema          *schema)
{
  if (projection->qualifier != NULL)
    return lookup_ref (refs, projection->qualifier);
  if (refs->len == 0)
    return NULL;
  if (schema != NULL && refs->len > 1 && projection->column != NULL)
    for (guint i = 0; i < refs->len; i++)
      {
        GrammarRulesTableRef *ref = g_ptr_array_index (refs, i);
        GrammarTable *table = grammar_schema_get_table (schema, ref->table);

        if (table != NULL && grammar_table_get_column (table, projection->column) != NULL)
          return ref;
      }
  return g_ptr_array_index (refs, 0);
}

/* The row an entity's placeholder picks: the alias of the compared
 * column, else the first reference to the placeholder's table. */
static GrammarRulesTableRef *
entity_ref (GPtrArray          *refs,
            GrammarRulesEntity *entity)
{
  GrammarRulesTableRef *ref = entity->qualifier != NULL ? lookup_ref (refs, entity->qualifier) : NULL;

  return ref != NULL ? ref : lookup_ref (refs, entity->table);
}

/* The entity whose row the projection reads. Rows are told apart by
 * alias, not table: in `employee e JOIN employee s`, `s.name` is not the
 * name of the employee `e.name` picks. */
static int
find_owner_entity (GPtrArray            *entities,
                   GPtrArray            *refs,
                   GrammarRulesTableRef *owner_ref,
                   const char           *owner_table)
{
  for (guint i = 0; i < entities->len; i++)
    {
      GrammarRulesEntity *entity = g_ptr_array_index (entities, i);
      GrammarRulesTableRef *ref = entity_ref (refs, entity);

      if (owner_ref != NULL && ref != NULL ? ref == owner_ref :
          owner_table != NULL && g_ascii_strcasecmp (entity->table, owner_table) == 0)
        return i;
    }
  return -1;
}

/* “director” for `director_id`, “supervisor” for `SupervisorID`,
 * “person” for `People_ID`, “manager” for `manager`; NULL for a plain
 * `id` and for a code (`isbn`, `book_isbn`, `country_code`): a code
 * joins rows but is no role. */
static char *
role_of_column (const char *column)
{
  g_autofree char *words = grammar_rule_verbalizer_humanize (column);
  gsize len = strlen (words);
  const char *last;

  if (len > 3 && g_ascii_strcasecmp (words + len - 3, " id") == 0)
    words[len - 3] = '\0';
  if (words[0] == '\0' || g_ascii_strcasecmp (words, "id") == 0)
    return NULL;
  last = strrchr (words, ' ');
  if (grammar_rules_is_code_word (last != NULL ? last + 1 : words))
    return NULL;
  return grammar_rule_verbalizer_entity_noun (words);
}

/* The role of the row @owner in a join condition `o.x = r.role_id`: the
 * name of the column that points at it, when that says more than its
 * table's noun does (`p.director_id = e.employee_id` → “director”,
 * `e.supervisor_id = s.employee_id` → “supervisor”, but
 * `p.client_id = c.client_id` → none). */
static char *
join_role (GArray               *tokens,
           GPtrArray            *refs,
           GrammarRulesTableRef *owner,
           const char           *owner_noun)
{
  for (guint i = 0; i + 6 < tokens->len; i++)
    {
      GrammarRulesToken *t = grammar_rules_token_at (tokens, i);
      GrammarRulesTableRef *left, *right, *other;
      const char *other_column;
      g_autofree char *role = NULL;
      g_autofree char *other_noun = NULL;

      if (!grammar_rules_is_name (t) || !grammar_rules_is_symbol (grammar_rules_token_at (tokens, i + 1), ".") || !grammar_rules_is_name (grammar_rules_token_at (tokens, i + 2)) ||
          !(grammar_rules_is_symbol (grammar_rules_token_at (tokens, i + 3), "=") || grammar_rules_is_symbol (grammar_rules_token_at (tokens, i + 3), "==")) ||
          !grammar_rules_is_name (grammar_rules_token_at (tokens, i + 4)) || !grammar_rules_is_symbol (grammar_rules_token_at (tokens, i + 5), ".") ||
          !grammar_rules_is_name (grammar_rules_token_at (tokens, i + 6)))
        continue;
      left = lookup_ref (refs, t->text);
      right = lookup_ref (refs, grammar_rules_token_at (tokens, i + 4)->text);
      if (left == NULL || right == NULL || left == right || (left != owner && right != owner))
        continue;
      other = left == owner ? right : left;
      other_column = grammar_rules_token_at (tokens, left == owner ? i + 6 : i + 2)->text;
      /* `ba.isbn = b.isbn`: a key shared under one name, not a role. */
      if (g_ascii_strcasecmp (grammar_rules_token_at (tokens, i + 2)->text, grammar_rules_token_at (tokens, i + 6)->text) == 0)
        continue;
      role = role_of_column (other_column);
      other_noun = grammar_rule_verbalizer_entity_noun (other->table);
      if (role != NULL && !g_str_equal (role, owner_noun) && !g_str_equal (role, other_noun))
        return g_steal_pointer (&role);
    }
  return NULL;
}

/* “industry”, “number of employees”, “highest age”; a column named after
 * its table loses the table's noun (`project.Project_Name` → “name”). */
static char *
describe_projection (GrammarRulesProjection *projection,
                     const char             *table_noun,
                     GrammarRulesValueKind   kind)
{
  g_autofree char *base = NULL;
  gboolean star = projection->column == NULL || g_str_equal (projection->column, "*");

  if (star && projection->alias != NULL && projection->aggregate == NULL)
    base = grammar_rules_column_phrase (projection->alias, VALUE_KIND_UNKNOWN, NULL);
  else if (star)
    base = g_strdup (projection->aggregate != NULL && table_noun != NULL ? table_noun : "details");
  else
    base = grammar_rules_column_phrase (projection->column, kind, table_noun);

  if (projection->aggregate == NULL)
    return g_steal_pointer (&base);
  return grammar_rules_phrase_aggregate (projection->aggregate, base);
}

static char *
join_conjunction (const char * const *items,
                  guint               n)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    {
      if (i > 0)
        g_string_append (text, i == n - 1 ? " and " : ", ");
      g_string_append (text, items[i]);
    }
  return g_string_free (text, FALSE);
}

/* Finds the parts of a SELECT the reader follows: the projections and
 * the FROM clause's table references. FALSE for anything else. */
static gboolean
read_select (GArray     *tokens,
             GPtrArray **projections,
             GPtrArray **refs)
{
  static const char * const from_word[] = { "from", NULL };
  static const char * const from_end[] = {
    "where", "group", "order", "limit", "having", "window", "union", "intersect", "except", NULL
  };
  guint from, end;

  if (!grammar_rules_is_word (grammar_rules_token_at (tokens, 0), "select"))
    return FALSE;
  from = grammar_rules_find_top_level (tokens, 1, tokens->len, from_word);
  if (from >= tokens->len)
    return FALSE;
  end = grammar_rules_find_top_level (tokens, from + 1, tokens->len, from_end);
  *projections = grammar_rules_read_projections (tokens, 1, from);
  *refs = grammar_rules_read_from_clause (tokens, from + 1, end);
  return (*projections)->len > 0;
}

/* The attribute: what the projections read, named from their rows. */
static void
describe_attribute (GrammarRulesMeaning *meaning,
                    GPtrArray           *projections,
                    GPtrArray           *refs,
                    GrammarSchema       *schema)
{
  g_autoptr (GPtrArray) phrases = g_ptr_array_new_with_free_func (g_free);
  GrammarRulesProjection *first = g_ptr_array_index (projections, 0);

  for (guint i = 0; i < projections->len; i++)
    {
      GrammarRulesProjection *projection = g_ptr_array_index (projections, i);
      GrammarRulesTableRef *ref = resolve_ref (refs, projection, schema);
      g_autofree char *noun = ref != NULL ? grammar_rule_verbalizer_entity_noun (ref->table) : NULL;
      GrammarRulesValueKind kind = column_kind (schema, ref != NULL ? ref->table : NULL, projection->column);

      g_ptr_array_add (phrases, describe_projection (projection, i == 0 ? meaning->owner : noun, kind));
    }
  meaning->attribute = join_conjunction ((const char * const *) phrases->pdata, phrases->len);
  meaning->plural = phrases->len > 1 || grammar_rules_phrase_is_plural (meaning->attribute);
  meaning->plain = projections->len == 1 && first->aggregate == NULL;
  meaning->counting = projections->len == 1 && first->aggregate != NULL &&
                      g_str_equal (first->aggregate, "number of") &&
                      (first->column == NULL || g_str_equal (first->column, "*"));
}

/* Names the projected row: an entity's noun when it is that entity's
 * row, else its role in a join, else its table's noun. */
static void
name_owner (GrammarRulesMeaning  *meaning,
            GArray               *tokens,
            GPtrArray            *refs,
            GrammarRulesTableRef *owner_ref,
            const char           *owner_table)
{
  g_autofree char *table_noun = owner_table != NULL ? grammar_rule_verbalizer_entity_noun (owner_table) : NULL;
  char *role;

  meaning->owner_entity = find_owner_entity (meaning->entities, refs, owner_ref, owner_table);
  if (meaning->owner_entity >= 0)
    {
      meaning->owner = g_strdup (((GrammarRulesEntity *) g_ptr_array_index (meaning->entities,
                                                                            meaning->owner_entity))->noun);
      return;
    }
  role = owner_ref != NULL && table_noun != NULL ? join_role (tokens, refs, owner_ref, table_noun) : NULL;
  meaning->owner = role != NULL ? role : g_steal_pointer (&table_noun);
}

GrammarRulesMeaning *
grammar_rules_meaning_new (GrammarSqlTemplate *sql_template,
             GrammarSchema      *schema)
{
  g_autoptr (GrammarRulesMeaning) meaning = g_new0 (GrammarRulesMeaning, 1);
  g_autoptr (GArray) tokens = grammar_rules_tokenize (grammar_sql_template_get_sql (sql_template));
  g_autoptr (GPtrArray) projections = NULL;
  g_autoptr (GPtrArray) refs = NULL;
  guint n_entities;

  meaning->entities = read_entities (sql_template, schema, tokens);
  n_entities = meaning->entities->len;
  if (read_select (tokens, &projections, &refs))
    {
      GrammarRulesProjection *first = g_ptr_array_index (projections, 0);
      GrammarRulesTableRef *owner_ref = resolve_ref (refs, first, schema);

      name_owner (meaning, tokens, refs, owner_ref, owner_ref != NULL ? owner_ref->table : first->qualifier);
      describe_attribute (meaning, projections, refs, schema);
      if (meaning->plain && first->column != NULL && !g_str_equal (first->column, "*"))
        {
          g_autofree char *column = bare_name (first->column);

          if (!grammar_rules_column_predicate (column, &meaning->statement, &meaning->auxiliary, &meaning->predicate))
            meaning->statement = meaning->auxiliary = meaning->predicate = NULL;
        }
    }
  else
    {
      /* Not a SELECT the reader follows: ask for its “details” about the
       * first entity. */
      meaning->owner_entity = 0;
      meaning->owner = g_strdup (((GrammarRulesEntity *) g_ptr_array_index (meaning->entities, 0))->noun);
      meaning->attribute = g_strdup ("details");
      meaning->plural = TRUE;
    }
  if (n_entities <= 1)
    meaning->shape = meaning->owner_entity >= 0 ? SHAPE_SIMPLE : SHAPE_FOLLOW;
  else
    meaning->shape = meaning->owner_entity >= 0 ? SHAPE_OWNER_WITH : SHAPE_LINK;
  /* “whether the customer … is active, with the order …” would not say
   * which row is active: several entities ask for the noun instead. */
  if (meaning->shape == SHAPE_OWNER_WITH)
    {
      g_clear_pointer (&meaning->statement, g_free);
      g_clear_pointer (&meaning->auxiliary, g_free);
      g_clear_pointer (&meaning->predicate, g_free);
    }
  return g_steal_pointer (&meaning);
}

/* Phrasing
 *
 * Formats use slots: %A the attribute, %O the owner noun, %F the first
 * entity as described, %X the other entities, %E all entities, %T the
 * whole target (“the industry of the company named '[company.Name]'”),
 * %R the attribute as a noun phrase without the entities (“the
 * industry”, “the name of the client”), %H the owner's attribute as
 * one noun phrase (“the client name”, “the customer's full name”), %V
 * “is” or “are”, %W “what's”
 * or “what are”, %N and %P an entity's noun and placeholder, %C its
 * column, %K “is” or “are” for that column, and %Q the comparison. */

void
grammar_rules_slot_set (GrammarRulesSlots *slots,
                        char               letter,
                        const char        *value)
{
  slots->slots[letter - 'A'] = value;
}

char *
grammar_rules_expand (const char              *format,
                      const GrammarRulesSlots *slots)
{
  GString *text = g_string_new (NULL);

  for (const char *p = format; *p != '\0'; p++)
    {
      if (p[0] == '%' && p[1] >= 'A' && p[1] <= 'Z' && slots->slots[p[1] - 'A'] != NULL)
        {
          g_string_append (text, slots->slots[p[1] - 'A']);
          p++;
        }
      else
        g_string_append_c (text, *p);
    }
  return g_string_free (text, FALSE);
}

static const char *
comparison_words (GrammarRulesComparison comparison,
                  GrammarRulesRegister   reg)
{
  gboolean brief = reg == REGISTER_SHORT;

  switch (comparison)
    {
    case COMPARISON_NE: return brief ? "not" : "other than";
    case COMPARISON_LT: return brief ? "under" : "less than";
    case COMPARISON_LE: return "at most";
    case COMPARISON_GT: return brief ? "over" : "greater than";
    case COMPARISON_GE: return "at least";
    case COMPARISON_LIKE: return "like";
    case COMPARISON_EQ:
    default: return "";
    }
}

/* The ways of naming one entity in a register. A @counted entity is the
 * one whose rows COUNT(*) counts: plural, without article (“employees
 * whose hire date is …”). */
static GPtrArray *
describe_entity (GrammarRulesEntity   *entity,
                 GrammarRulesRegister  reg,
                 gboolean              counted)
{
  static const char * const counted_named[] = { "%N %Q %P", "%N called %P", NULL };
  static const char * const counted_equal[] = { "%N whose %C %K %P", "%N with %C %P", NULL };
  static const char * const counted_compare[] = { "%N whose %C %K %Q %P", "%N with %C %Q %P", NULL };
  g_autofree char *plural = counted ? grammar_rules_pluralize (entity->noun) : NULL;
  static const char * const named_full[] = {
    "the %N %Q %P", "the %N called %P", "the %N %P", "the %N with the %C %P", NULL };
  static const char * const named_short[] = { "%N %P", "%P", NULL };
  static const char * const named_casual[] = { "%P", "the %N %P", NULL };
  static const char * const equal_full[] = { "the %N whose %C %K %P", "the %N with %C %P", NULL };
  static const char * const equal_short[] = { "%N with %C %P", NULL };
  static const char * const compare_full[] = { "the %N whose %C %K %Q %P", "the %N with %C %Q %P", NULL };
  static const char * const compare_short[] = { "%N with %C %Q %P", NULL };
  const char * const *formats;
  GPtrArray *descriptions = g_ptr_array_new_with_free_func (g_free);
  GrammarRulesSlots slots = { { NULL } };

  if (counted)
    formats = entity->naming != NULL ? counted_named :
              entity->comparison == COMPARISON_EQ ? counted_equal : counted_compare;
  else if (entity->naming != NULL)
    formats = reg == REGISTER_SHORT ? named_short : reg == REGISTER_CASUAL ? named_casual : named_full;
  else if (entity->comparison == COMPARISON_EQ)
    formats = reg == REGISTER_SHORT ? equal_short : equal_full;
  else
    formats = reg == REGISTER_SHORT ? compare_short : compare_full;

  grammar_rules_slot_set (&slots, 'N', counted ? plural : entity->noun);
  grammar_rules_slot_set (&slots, 'P', entity->written);
  grammar_rules_slot_set (&slots, 'C', entity->column);
  grammar_rules_slot_set (&slots, 'K', entity->column_plural ? "are" : "is");
  grammar_rules_slot_set (&slots, 'Q', entity->naming != NULL ? entity->naming : comparison_words (entity->comparison, reg));
  for (guint i = 0; formats[i] != NULL; i++)
    g_ptr_array_add (descriptions, grammar_rules_expand (formats[i], &slots));
  return descriptions;
}

/* With COUNT(*), what is counted is the projected table's rows. */
static const GrammarRulesPattern *
counting_patterns (GrammarRulesShape    shape,
                   GrammarRulesRegister reg)
{
  static const GrammarRulesPattern simple_full[] = { { "the number of %F", 0 }, { NULL, 0 } };
  static const GrammarRulesPattern follow_full[] = {
    { "the %A of %F", 0 }, { "the %A for %F", 0 }, { "the %A associated with %F", 0 }, { NULL, 0 } };
  static const GrammarRulesPattern link_full[] = { { "the %A for %E", 0 }, { "the %A linking %E", 0 }, { NULL, 0 } };
  static const GrammarRulesPattern owner_full[] = {
    { "the number of %F with %X", NEEDS_NO_WITH_FIRST }, { "the number of %F for %X", 0 }, { NULL, 0 } };
  static const GrammarRulesPattern simple_short[] = { { "number of %F", 0 }, { "count of %F", 0 }, { NULL, 0 } };
  static const GrammarRulesPattern follow_short[] = { { "%A of %F", 0 }, { "%A for %F", 0 }, { NULL, 0 } };
  static const GrammarRulesPattern link_short[] = { { "%A for %E", 0 }, { NULL, 0 } };
  static const GrammarRulesPattern owner_short[] = { { "number of %F for %X", 0 }, { NULL, 0 } };
  gboolean brief = reg == REGISTER_SHORT;

  switch (shape)
    {
    case SHAPE_FOLLOW: return brief ? follow_short : follow_full;
    case SHAPE_LINK: return brief ? link_short : link_full;
    case SHAPE_OWNER_WITH: return brief ? owner_short : owner_full;
    case SHAPE_SIMPLE:
    default: return brief ? simple_short : simple_full;
    }
}

static const GrammarRulesPattern *
target_patterns (GrammarRulesShape    shape,
                 GrammarRulesRegister reg)
{
  static const GrammarRulesPattern simple_full[] = { { "the %A of %F", 0 }, { "the %A for %F", 0 }, { NULL, 0 } };
  /* No “the %A of the %O for %F”: a chain of bare nouns (“the role of
   * the assignment for the employee …”) leaves the reader to guess what
   * “for” attaches to. The linking row's attribute is not its first
   * entity's either (“the years working of the company …”). */
  static const GrammarRulesPattern follow_full[] = {
    { "the %A of the %O of %F", 0 }, { "the %A of the %O associated with %F", 0 },
    { "the %H for %F", NEEDS_PLAIN }, { NULL, 0 } };
  static const GrammarRulesPattern link_full[] = {
    { "the %A for %E", 0 }, { "the %A recorded for %E", 0 }, { "the %A of the %O linking %E", NEEDS_OWN_NOUN },
    { NULL, 0 } };
  static const GrammarRulesPattern owner_full[] = {
    { "the %A of %F with %X", NEEDS_NO_WITH_FIRST }, { "the %A of %F for %X", 0 },
    { "the %A of %F in connection with %X", 0 }, { NULL, 0 } };
  static const GrammarRulesPattern simple_short[] = {
    { "%A of %F", 0 }, { "%A for %F", 0 }, { "%F %A", NEEDS_NAMED_FIRST }, { "%A, %F", 0 }, { NULL, 0 } };
  static const GrammarRulesPattern follow_short[] = {
    { "%H of %F", NEEDS_PLAIN }, { "%A of %O of %F", 0 }, { "%H for %F", NEEDS_PLAIN }, { NULL, 0 } };
  static const GrammarRulesPattern link_short[] = { { "%A for %E", 0 }, { "%A, %E", 0 }, { NULL, 0 } };
  static const GrammarRulesPattern owner_short[] = {
    { "%A of %F with %X", NEEDS_NO_WITH_FIRST }, { "%A for %E", 0 }, { NULL, 0 } };
  gboolean brief = reg == REGISTER_SHORT;

  switch (shape)
    {
    case SHAPE_FOLLOW: return brief ? follow_short : follow_full;
    case SHAPE_LINK: return brief ? link_short : link_full;
    case SHAPE_OWNER_WITH: return brief ? owner_short : owner_full;
    case SHAPE_SIMPLE:
    default: return brief ? simple_short : simple_full;
    }
}

static gboolean
counted_entity (GrammarRulesMeaning *meaning)
{
  return meaning->counting && meaning->owner_entity >= 0;
}

/* Whether the owner's noun has a word the entities' nouns do not: a
 * linking table named after what it links (`book_author`) is no thing
 * of its own to name (“the role of the book author linking …”). */
static gboolean
owner_says_more (GrammarRulesMeaning *meaning)
{
  g_auto (GStrv) words = meaning->owner != NULL ? g_strsplit (meaning->owner, " ", -1) : NULL;

  for (guint w = 0; words != NULL && words[w] != NULL; w++)
    {
      gboolean known = FALSE;

      for (guint e = 0; e < meaning->entities->len && !known; e++)
        {
          g_auto (GStrv) noun = g_strsplit (((GrammarRulesEntity *) g_ptr_array_index (meaning->entities, e))->noun,
                                            " ", -1);

          known = g_strv_contains ((const char * const *) noun, words[w]);
        }
      if (!known)
        return TRUE;
    }
  return FALSE;
}

/* Whether %R is “the %A” alone, or “the %A of the %O”. */
static gboolean
relative_is_bare (GrammarRulesMeaning *meaning)
{
  return meaning->shape == SHAPE_SIMPLE || meaning->shape == SHAPE_LINK || meaning->counting;
}

gboolean
grammar_rules_pattern_applies (guint                needs,
                               GrammarRulesMeaning *meaning,
                               gboolean             named_first,
                               const char          *first)
{
  if ((needs & NEEDS_COUNTED) && !(counted_entity (meaning) && meaning->shape == SHAPE_SIMPLE))
    return FALSE;
  if ((needs & NEEDS_NOT_COUNTED) && counted_entity (meaning))
    return FALSE;
  if ((needs & NEEDS_NO_WITH_FIRST) && first != NULL && strstr (first, " with ") != NULL)
    return FALSE;
  if ((needs & NEEDS_PLAIN) && !meaning->plain)
    return FALSE;
  if ((needs & NEEDS_NAMED_FIRST) && !named_first)
    return FALSE;
  if ((needs & NEEDS_SIMPLE) && meaning->shape != SHAPE_SIMPLE)
    return FALSE;
  if ((needs & NEEDS_SINGULAR) && meaning->plural)
    return FALSE;
  if ((needs & NEEDS_BARE_RELATIVE) && !relative_is_bare (meaning))
    return FALSE;
  if ((needs & NEEDS_OWN_NOUN) && !owner_says_more (meaning))
    return FALSE;
  return TRUE;
}

static void
realization_free (gpointer data)
{
  GrammarRulesRealization *realization = data;

  g_free (realization->target);
  g_free (realization->entities);
  g_free (realization->relative);
  g_free (realization->question);
  g_free (realization);
}

/* Entity orders: as in the SQL, and reversed, except that the entity
 * whose column is projected always comes first. */
static GPtrArray *
entity_orders (GrammarRulesMeaning *meaning)
{
  GPtrArray *orders = g_ptr_array_new_with_free_func (g_free);
  guint n = meaning->entities->len;
  guint *order = g_new (guint, MAX (n, 1));
  guint k = 0;

  if (meaning->owner_entity >= 0)
    order[k++] = meaning->owner_entity;
  for (guint i = 0; i < n; i++)
    if ((int) i != meaning->owner_entity)
      order[k++] = i;
  g_ptr_array_add (orders, order);
  if (n > 1 && meaning->owner_entity < 0)
    {
      guint *reversed = g_new (guint, n);

      for (guint i = 0; i < n; i++)
        reversed[i] = order[n - 1 - i];
      g_ptr_array_add (orders, reversed);
    }
  return orders;
}

/* Every choice of description per entity, as indexes; when there are
 * too many, the i-th description of every entity together. */

static GPtrArray *
description_choices (GPtrArray *descriptions)
{
  GPtrArray *choices = g_ptr_array_new_with_free_func (g_free);
  guint n = descriptions->len, total = 1, widest = 0;

  for (guint i = 0; i < n; i++)
    {
      guint len = ((GPtrArray *) g_ptr_array_index (descriptions, i))->len;

      total = MIN (total * len, MAX_COMBINATIONS + 1);
      widest = MAX (widest, len);
    }
  if (total > MAX_COMBINATIONS)
    {
      for (guint k = 0; k < widest; k++)
        {
          guint *choice = g_new (guint, n);

          for (guint i = 0; i < n; i++)
            choice[i] = k % ((GPtrArray *) g_ptr_array_index (descriptions, i))->len;
          g_ptr_array_add (choices, choice);
        }
      return choices;
    }
  for (guint index = 0; index < total; index++)
    {
      guint *choice = g_new (guint, MAX (n, 1));
      guint rest = index;

      for (guint i = 0; i < n; i++)
        {
          guint len = ((GPtrArray *) g_ptr_array_index (descriptions, i))->len;

          choice[i] = rest % len;
          rest /= len;
        }
      g_ptr_array_add (choices, choice);
    }
  return choices;
}

/* A yes/no column: the target is a “whether” clause, %I the question. */
typedef struct
{
  const char *target;
  const char *question;
  guint needs;
} YesNoPattern;

static const YesNoPattern *
yes_no_patterns (GrammarRulesShape    shape,
                 GrammarRulesRegister reg)
{
  static const YesNoPattern simple_full[] = { { "whether %F %S", "%U %F %Y", 0 }, { NULL, NULL, 0 } };
  static const YesNoPattern follow_full[] = {
    { "whether the %O of %F %S", "%U the %O of %F %Y", 0 },
    { "whether the %O associated with %F %S", "%U the %O associated with %F %Y", 0 }, { NULL, NULL, 0 } };
  static const YesNoPattern link_full[] = {
    { "whether the %O linking %E %S", "%U the %O linking %E %Y", NEEDS_OWN_NOUN },
    { "whether the %O for %E %S", "%U the %O for %E %Y", NEEDS_OWN_NOUN },
    { "whether the record for %E %S", "%U the record for %E %Y", 0 }, { NULL, NULL, 0 } };
  static const YesNoPattern simple_short[] = { { "whether %F %S", "%U %F %Y", 0 }, { NULL, NULL, 0 } };
  static const YesNoPattern follow_short[] = { { "whether %O of %F %S", "%U %O of %F %Y", 0 }, { NULL, NULL, 0 } };
  static const YesNoPattern link_short[] = { { "whether %O for %E %S", "%U %O for %E %Y", 0 }, { NULL, NULL, 0 } };
  gboolean brief = reg == REGISTER_SHORT;

  switch (shape)
    {
    case SHAPE_FOLLOW: return brief ? follow_short : follow_full;
    case SHAPE_LINK: return brief ? link_short : link_full;
    case SHAPE_OWNER_WITH:
    case SHAPE_SIMPLE:
    default: return brief ? simple_short : simple_full;
    }
}

static void
add_yes_no_realizations (GPtrArray             *realizations,
                         GrammarRulesMeaning   *meaning,
                         GrammarRulesRegister   reg,
                         const char           **ordered)
{
  const YesNoPattern *patterns = yes_no_patterns (meaning->shape, reg);
  guint n = meaning->entities->len;
  g_autofree char *all = join_conjunction (ordered, n);
  GrammarRulesSlots slots = { { NULL } };

  grammar_rules_slot_set (&slots, 'A', meaning->attribute);
  grammar_rules_slot_set (&slots, 'O', meaning->owner != NULL ? meaning->owner : "record");
  grammar_rules_slot_set (&slots, 'F', n > 0 ? ordered[0] : "");
  grammar_rules_slot_set (&slots, 'E', all);
  grammar_rules_slot_set (&slots, 'S', meaning->statement);
  grammar_rules_slot_set (&slots, 'U', meaning->auxiliary);
  grammar_rules_slot_set (&slots, 'Y', meaning->predicate);
  for (guint p = 0; patterns[p].target != NULL; p++)
    {
      GrammarRulesRealization *realization;

      if (!grammar_rules_pattern_applies (patterns[p].needs, meaning, FALSE, n > 0 ? ordered[0] : NULL))
        continue;
      realization = g_new0 (GrammarRulesRealization, 1);
      realization->pattern = p;
      realization->target = grammar_rules_expand (patterns[p].target, &slots);
      realization->question = grammar_rules_expand (patterns[p].question, &slots);
      realization->entities = g_strdup (all);
      realization->relative = grammar_rules_expand ("the %A", &slots);
      g_ptr_array_add (realizations, realization);
    }
}

static void
add_realizations (GPtrArray             *realizations,
                  GrammarRulesMeaning   *meaning,
                  GrammarRulesRegister   reg,
                  const char           **ordered,
                  gboolean               named_first)
{
  const GrammarRulesPattern *patterns = meaning->counting ? counting_patterns (meaning->shape, reg) :
                           target_patterns (meaning->shape, reg);
  guint n = meaning->entities->len;
  g_autofree char *all = join_conjunction (ordered, n);
  g_autofree char *rest = join_conjunction (ordered + 1, n > 0 ? n - 1 : 0);
  g_autofree char *compound = grammar_rules_compound (meaning->owner != NULL ? meaning->owner : "record",
                                                      meaning->attribute);
  GrammarRulesSlots slots = { { NULL } };

  grammar_rules_slot_set (&slots, 'A', meaning->attribute);
  grammar_rules_slot_set (&slots, 'O', meaning->owner != NULL ? meaning->owner : "record");
  grammar_rules_slot_set (&slots, 'F', n > 0 ? ordered[0] : "");
  grammar_rules_slot_set (&slots, 'X', rest);
  grammar_rules_slot_set (&slots, 'E', all);
  grammar_rules_slot_set (&slots, 'H', compound);
  for (guint p = 0; patterns[p].format != NULL; p++)
    {
      GrammarRulesRealization *realization;

      if (!grammar_rules_pattern_applies (patterns[p].needs, meaning, named_first, n > 0 ? ordered[0] : NULL))
        continue;
      realization = g_new0 (GrammarRulesRealization, 1);
      realization->pattern = p;
      realization->target = grammar_rules_expand (patterns[p].format, &slots);
      realization->entities = g_strdup (all);
      realization->relative = grammar_rules_expand (relative_is_bare (meaning) ? "the %A" : "the %A of the %O", &slots);
      g_ptr_array_add (realizations, realization);
    }
}

/* Removes descriptions that have a “with”, unless all have. */
static void
drop_with (GPtrArray *descriptions)
{
  guint n_with = 0;

  for (guint i = 0; i < descriptions->len; i++)
    n_with += strstr (g_ptr_array_index (descriptions, i), " with ") != NULL ? 1 : 0;
  if (n_with == descriptions->len)
    return;
  for (guint i = descriptions->len; i > 0; i--)
    if (strstr (g_ptr_array_index (descriptions, i - 1), " with ") != NULL)
      g_ptr_array_remove_index (descriptions, i - 1);
}

GPtrArray *
grammar_rules_realize (GrammarRulesMeaning  *meaning,
                       GrammarRulesRegister  reg)
{
  GPtrArray *realizations = g_ptr_array_new_with_free_func (realization_free);
  g_autoptr (GPtrArray) descriptions = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  g_autoptr (GPtrArray) orders = entity_orders (meaning);
  g_autoptr (GPtrArray) choices = NULL;
  guint n = meaning->entities->len;
  g_autofree const char **ordered = g_new0 (const char *, n + 1);

  for (guint i = 0; i < n; i++)
    {
      GPtrArray *described = describe_entity (g_ptr_array_index (meaning->entities, i), reg,
                                              counted_entity (meaning) && (int) i == meaning->owner_entity);

      /* Entities are joined with “with”: their own descriptions without
       * one read better (“… of the person named X with the company Y”). */
      if (n > 1)
        drop_with (described);
      g_ptr_array_add (descriptions, described);
    }
  choices = description_choices (descriptions);

  for (guint o = 0; o < orders->len; o++)
    for (guint c = 0; c < choices->len; c++)
      {
        const guint *order = g_ptr_array_index (orders, o);
        const guint *choice = g_ptr_array_index (choices, c);
        GrammarRulesEntity *first = n > 0 ? g_ptr_array_index (meaning->entities, order[0]) : NULL;

        for (guint i = 0; i < n; i++)
          ordered[i] = g_ptr_array_index ((GPtrArray *) g_ptr_array_index (descriptions, order[i]),
                                          choice[order[i]]);
        if (meaning->statement != NULL)
          add_yes_no_realizations (realizations, meaning, reg, ordered);
        else
          add_realizations (realizations, meaning, reg, ordered, first != NULL && first->naming != NULL);
      }
  return realizations;
}
