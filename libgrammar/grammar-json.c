/* grammar-json.c: the members the JSON reports write the same way
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>

#include "grammar-json-private.h"

/* Member @name: @value, or null when it is not finite. */
void
grammar_json_add_number (JsonBuilder *builder,
                         const char  *name,
                         double       value)
{
  json_builder_set_member_name (builder, name);
  if (isfinite (value))
    json_builder_add_double_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

void
grammar_json_add_int (JsonBuilder *builder,
                      const char  *name,
                      guint64      value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_int_value (builder, (gint64) value);
}

/* Member @name: [@low, @high], or null when the interval is not @defined. */
void
grammar_json_add_interval (JsonBuilder *builder,
                           const char  *name,
                           gboolean     defined,
                           double       low,
                           double       high)
{
  json_builder_set_member_name (builder, name);
  if (!defined)
    {
      json_builder_add_null_value (builder);
      return;
    }
  json_builder_begin_array (builder);
  json_builder_add_double_value (builder, low);
  json_builder_add_double_value (builder, high);
  json_builder_end_array (builder);
}
