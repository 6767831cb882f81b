/* grammar-match-date.c: a date read in a text, at the precision it was written
 *
 * grammar-match-tokens.c reads the dates of a text; this file says what
 * a coarse date covers and whether a precision is coarse enough.
 *
 * A coarse date covers whole months, so containment compares months
 * counted from year 0 (year × 12 + month − 1):
 *
 * - a month covers itself, a quarter its three months (Q2: April–June),
 *   a year January–December;
 * - a season covers three meteorological months: in the north spring is
 *   March–May, summer June–August, autumn September–November and
 *   winter December–February; in the south each is six months later.
 *   The season that runs across the new year (winter in the north,
 *   summer in the south) takes the year of its January and February:
 *   "winter 2023" is December 2022 to February 2023, two of its three
 *   months being in 2023 (as climate records count DJF seasons), and
 *   "winter 2023-24" is December 2023 to February 2024; a span of years
 *   given to any other season makes it cover nothing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "grammar-match-date.h"

static GType date_precision_type;
static GType hemisphere_type;

static const GEnumValue date_precision_values[] = {
  { GRAMMAR_DATE_PRECISION_DAY, "GRAMMAR_DATE_PRECISION_DAY", "day" },
  { GRAMMAR_DATE_PRECISION_MONTH, "GRAMMAR_DATE_PRECISION_MONTH", "month" },
  { GRAMMAR_DATE_PRECISION_QUARTER, "GRAMMAR_DATE_PRECISION_QUARTER", "quarter" },
  { GRAMMAR_DATE_PRECISION_SEASON, "GRAMMAR_DATE_PRECISION_SEASON", "season" },
  { GRAMMAR_DATE_PRECISION_YEAR, "GRAMMAR_DATE_PRECISION_YEAR", "year" },
  { 0, NULL, NULL },
};

static const GEnumValue hemisphere_values[] = {
  { GRAMMAR_HEMISPHERE_NORTH, "GRAMMAR_HEMISPHERE_NORTH", "north" },
  { GRAMMAR_HEMISPHERE_SOUTH, "GRAMMAR_HEMISPHERE_SOUTH", "south" },
  { 0, NULL, NULL },
};

GType
grammar_date_precision_get_type (void)
{
  return date_precision_type;
}

GType
grammar_hemisphere_get_type (void)
{
  return hemisphere_type;
}

/**
 * grammar_date_precision_to_string:
 * @precision: a precision
 *
 * Returns: its keyword: `day`, `month`, `quarter`, `season` or `year`
 */
const char *
grammar_date_precision_to_string (GrammarDatePrecision precision)
{
  g_return_val_if_fail (precision <= GRAMMAR_DATE_PRECISION_YEAR, NULL);

  return date_precision_values[precision].value_nick;
}

/**
 * grammar_date_precision_accepts:
 * @coarsest: the coarsest precision a setting accepts
 * @precision: the precision of a date
 *
 * The order is day < month < quarter, season < year; quarter and season
 * are not comparable: `quarter` accepts days, months and quarters,
 * `season` days, months and seasons, `year` everything.
 *
 * Returns: whether a date written at @precision is precise enough
 */
gboolean
grammar_date_precision_accepts (GrammarDatePrecision coarsest,
                                GrammarDatePrecision precision)
{
  return precision == coarsest || precision == GRAMMAR_DATE_PRECISION_DAY ||
         coarsest == GRAMMAR_DATE_PRECISION_YEAR ||
         (precision == GRAMMAR_DATE_PRECISION_MONTH && coarsest != GRAMMAR_DATE_PRECISION_DAY);
}

/* The months @self covers, counted from year 0; FALSE for a day. */
static gboolean
month_range (const GrammarMatchDate *self,
             GrammarHemisphere       hemisphere,
             int                    *first,
             int                    *last)
{
  /* The first month of spring, summer, autumn and winter in the north. */
  static const int season_start[] = { 3, 6, 9, 12 };
  int start;

  switch (self->precision)
    {
    case GRAMMAR_DATE_PRECISION_MONTH:
      *first = *last = self->year * 12 + self->month - 1;
      return TRUE;
    case GRAMMAR_DATE_PRECISION_QUARTER:
      *first = self->year * 12 + 3 * (self->quarter - 1);
      *last = *first + 2;
      return TRUE;
    case GRAMMAR_DATE_PRECISION_SEASON:
      start = season_start[self->season];
      if (hemisphere == GRAMMAR_HEMISPHERE_SOUTH)
        start = (start + 6 - 1) % 12 + 1;
      /* "summer 2023-24" in the north is no season. */
      if (self->across_years && start != 12)
        return FALSE;
      /* The season across the new year starts in the December before. */
      *first = start == 12 ? (self->year - 1) * 12 + 11 : self->year * 12 + start - 1;
      *last = *first + 2;
      return TRUE;
    case GRAMMAR_DATE_PRECISION_YEAR:
      *first = self->year * 12;
      *last = *first + 11;
      return TRUE;
    case GRAMMAR_DATE_PRECISION_DAY:
    default:
      return FALSE;
    }
}

/**
 * grammar_match_date_contains:
 * @self: a date at month, quarter, season or year precision
 * @day: a full date (day precision)
 * @hemisphere: where @self's seasons are named
 *
 * Returns: whether @day falls within @self; %FALSE when @self is a full
 *   date itself (days are compared as tokens, never here)
 */
gboolean
grammar_match_date_contains (const GrammarMatchDate *self,
                             const GrammarMatchDate *day,
                             GrammarHemisphere       hemisphere)
{
  int first, last, month;

  g_return_val_if_fail (day->precision == GRAMMAR_DATE_PRECISION_DAY, FALSE);

  if (!month_range (self, hemisphere, &first, &last))
    return FALSE;
  month = day->year * 12 + day->month - 1;
  return first <= month && month <= last;
}

/**
 * grammar_match_date_register:
 * @module: the matchers' module
 *
 * Registers #GrammarDatePrecision and #GrammarHemisphere, the types of
 * the `contains` matcher's `date-precision` and `hemisphere`.
 */
void
grammar_match_date_register (GTypeModule *module)
{
  date_precision_type = g_type_module_register_enum (module, "GrammarDatePrecision", date_precision_values);
  hemisphere_type = g_type_module_register_enum (module, "GrammarHemisphere", hemisphere_values);
}
