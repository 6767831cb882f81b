/* grammar-match-date.h: a date read in a text, at the precision it was written
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <grammar.h>

G_BEGIN_DECLS

/**
 * GrammarDatePrecision:
 * @GRAMMAR_DATE_PRECISION_DAY: a full date: "2024-06-15", "June 15, 2024"
 * @GRAMMAR_DATE_PRECISION_MONTH: a month of a year: "June 2024", "06/2024", "2024-06"
 * @GRAMMAR_DATE_PRECISION_QUARTER: a quarter of a year: "Q2 2024", "the second quarter of 2024"
 * @GRAMMAR_DATE_PRECISION_SEASON: a season of a year: "spring of 2024", "winter 2024"
 * @GRAMMAR_DATE_PRECISION_YEAR: a year alone: "2024"
 *
 * How precisely a date is written. Quarters and seasons are both
 * coarser than months and finer than years, but neither contains the
 * other (spring, March to May, straddles Q1 and Q2), so neither is
 * coarser than the other: see grammar_date_precision_accepts().
 */
typedef enum
{
  GRAMMAR_DATE_PRECISION_DAY,
  GRAMMAR_DATE_PRECISION_MONTH,
  GRAMMAR_DATE_PRECISION_QUARTER,
  GRAMMAR_DATE_PRECISION_SEASON,
  GRAMMAR_DATE_PRECISION_YEAR,
} GrammarDatePrecision;

/**
 * GrammarHemisphere:
 * @GRAMMAR_HEMISPHERE_NORTH: spring is March to May
 * @GRAMMAR_HEMISPHERE_SOUTH: spring is September to November
 *
 * Which half of the world a season is named in.
 */
typedef enum
{
  GRAMMAR_HEMISPHERE_NORTH,
  GRAMMAR_HEMISPHERE_SOUTH,
} GrammarHemisphere;

typedef enum
{
  GRAMMAR_SEASON_SPRING,
  GRAMMAR_SEASON_SUMMER,
  GRAMMAR_SEASON_AUTUMN,
  GRAMMAR_SEASON_WINTER,
} GrammarSeason;

/* One date of a text, as it was written. Only the fields of its
 * precision mean something. */
typedef struct
{
  GrammarDatePrecision precision;
  int year;
  int month;              /* 1–12: day and month precision */
  int day;                /* 1–31: day precision */
  int quarter;            /* 1–4: quarter precision */
  GrammarSeason season;   /* season precision */
  gboolean across_years;  /* a season written with a span of years ("winter
                           * 2023-24"); @year is the second */
  gsize start;            /* the bytes of the base text it covers */
  gsize end;
} GrammarMatchDate;

#define GRAMMAR_TYPE_DATE_PRECISION (grammar_date_precision_get_type ())
#define GRAMMAR_TYPE_HEMISPHERE (grammar_hemisphere_get_type ())

GType       grammar_date_precision_get_type  (void);
GType       grammar_hemisphere_get_type      (void);
const char *grammar_date_precision_to_string (GrammarDatePrecision  precision);
gboolean    grammar_date_precision_accepts   (GrammarDatePrecision  coarsest,
                                              GrammarDatePrecision  precision);
gboolean    grammar_match_date_contains      (const GrammarMatchDate *self,
                                              const GrammarMatchDate *day,
                                              GrammarHemisphere       hemisphere);
void        grammar_match_date_register      (GTypeModule          *module);

G_END_DECLS
