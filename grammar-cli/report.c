/* report.c: `grammar report`, the figures of a judged run
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <unistd.h>

#include <gio/gunixoutputstream.h>

#include "grammar-cli.h"

/* What --max-list is when not given, for the text report: a terminal
 * shows a few examples; the other formats are for keeping, so all. */

static gboolean
check_options (const char          *input,
               const char          *against,
               const char          *format_name,
               GrammarReportFormat *format,
               int                  max_list,
               double               alpha,
               gboolean             balance,
               int                  argc,
               char               **argv)
{
  const char *problem = NULL;

  if (argc > 1)
    {
      fprintf (stderr, "grammar report: unexpected argument “%s”\n", argv[1]);
      return FALSE;
    }
  if (input == NULL)
    problem = "no judged file given; pass -i judged.jsonl";
  else if (format_name != NULL && !grammar_report_format_from_string (format_name, format))
    problem = "--format must be text, json, markdown or html";
  else if (max_list < -1)
    problem = "--max-list must not be negative";
  else if (!isnan (alpha) && !(alpha > 0.0 && alpha < 1.0))
    problem = "--alpha must be between 0 and 1, such as 0.05";
  else if (against == NULL && (balance || !isnan (alpha)))
    problem = "--balance and --alpha only apply with --against";
  if (problem != NULL)
    fprintf (stderr, "grammar report: %s\nRun “grammar report --help” for the options.\n", problem);
  return problem == NULL;
}

/* The cutoffs of --k: "3,5" or repeated, each a positive whole number or
 * "retrieved" (0). FALSE, with a message, for anything else. */
static gboolean
parse_cutoffs (char   **options,
               GArray  *cutoffs)
{
  for (guint i = 0; options != NULL && options[i] != NULL; i++)
    {
      g_auto (GStrv) items = g_strsplit (options[i], ",", -1);

      for (guint j = 0; items[j] != NULL; j++)
        {
          const char *item = g_strstrip (items[j]);
          guint64 k = 0;
          guint cutoff;

          if (g_str_equal (item, "retrieved"))
            k = 0;
          else if (!g_ascii_string_to_unsigned (item, 10, 1, 10000, &k, NULL))
            {
              fprintf (stderr, "grammar report: --k: “%s” is not a cutoff: give whole numbers from 1 to 10000 "
                       "or “retrieved”, such as --k 1,3,5\n", item);
              return FALSE;
            }
          cutoff = (guint) k;
          g_array_append_val (cutoffs, cutoff);
        }
    }
  return TRUE;
}

/* The report JSON: the evaluation of @input, and the comparison with
 * @against when it is given. */
int
grammar_cli_report_main (int    argc,
                         char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GOutputStream) out = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *input = NULL;
  g_autofree char *against = NULL;
  g_autofree char *output_path = NULL;
  g_autofree char *format_name = NULL;
  g_auto (GStrv) assessed = NULL;
  g_auto (GStrv) k_options = NULL;
  g_autoptr (GArray) cutoffs = g_array_new (FALSE, FALSE, sizeof (guint));
  GrammarReportFormat format = GRAMMAR_REPORT_FORMAT_TEXT;
  gboolean balance = FALSE;
  double alpha = NAN;
  int max_list = -1;
  int status = GRAMMAR_EXIT_OK;
  GOptionEntry entries[] = {
    { "input", 'i', 0, G_OPTION_ARG_FILENAME, &input, "The judged run (JSON Lines, from grammar judge or import)",
      "FILE" },
    { "against", 0, 0, G_OPTION_ARG_FILENAME, &against,
      "A second judged run to compare with: are the robustness figures different?", "FILE" },
    { "balance", 0, 0, G_OPTION_ARG_NONE, &balance,
      "With --against: drop gap groups from the side that has more, until their shares match", NULL },
    { "alpha", 0, 0, G_OPTION_ARG_DOUBLE, &alpha, "With --against: the significance level (default: 0.05)",
      "P" },
    { "assessed", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &assessed,
      "An assessed file (grammar assess) of these records: how reliable each metric is (repeatable)", "FILE" },
    { "k", 'k', 0, G_OPTION_ARG_STRING_ARRAY, &k_options,
      "Cutoffs of the retrieval metrics, such as 1,3,5 (default: what each query retrieved)", "K" },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format_name, "text, json, markdown or html (default: text)",
      "FORMAT" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output_path, "Write the report to FILE (default: stdout)",
      "FILE" },
    { "max-list", 0, 0, G_OPTION_ARG_INT, &max_list,
      "Gap groups and errors listed, at most (default: 20 for text, 0 = all for the other formats)", "N" },
    G_OPTION_ENTRY_NULL
  };

  context = g_option_context_new ("— accuracy, robustness and their breakdowns for a judged run");
  g_option_context_set_summary (context,
    "Tags every semantic group of the judged run as gap (no query right), robust\n"
    "(all right) or non-robust (some right), and reports accuracy, robustness,\n"
    "knowledge accuracy and retrieval accuracy and robustness with 95 % Wilson\n"
    "intervals, by style, template and table, with the gap groups and the errors\n"
    "of non-robust groups attributed to retrieval or to the language model.\n"
    "With --against, the groups both runs share are compared with two-proportion\n"
    "z-tests, and a conclusion says which side is less robust by accuracy and by\n"
    "robustness, and says so when the two disagree.\n"
    "With --assessed, each metric of the assessed files is checked against the\n"
    "grounded verdicts: confusion table, precision (low: optimistic), recall\n"
    "(low: cynical), specificity, accuracy, AUROC, by style and by group tag,\n"
    "and RAGEval's keypoint figures of a rageval-keypoints metric.\n"
    "Records with true documents (doc_ids) and what was retrieved give the\n"
    "retrieval metrics: hit rate, precision, recall, MRR and nDCG at --k, and\n"
    "RAGEval's recall and effective information rate.");
  g_option_context_set_description (context,
    "The html format is one self-contained page with SVG charts; json is the\n"
    "report's data (see doc/report.md).\n"
    "Exit status: 0 success, 1 the report cannot be written, 2 bad usage or input\n"
    "(an empty file, an unknown verdict, a record without group, no shared group,\n"
    "an assessed record whose id no judged file has).");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!grammar_cli_parse (context, "report", &argc, &argv, &status))
    return status;
  if (!check_options (input, against, format_name, &format, max_list, alpha, balance, argc, argv) ||
      !parse_cutoffs (k_options, cutoffs))
    return GRAMMAR_EXIT_USAGE;
  if (max_list < 0)
    max_list = format == GRAMMAR_REPORT_FORMAT_TEXT ? GRAMMAR_REPORT_TEXT_MAX_LIST : 0;

  if (output_path != NULL)
    {
      g_autoptr (GPtrArray) inputs = g_ptr_array_new ();

      g_ptr_array_add (inputs, input);
      if (against != NULL)
        g_ptr_array_add (inputs, against);
      for (guint i = 0; assessed != NULL && assessed[i] != NULL; i++)
        g_ptr_array_add (inputs, assessed[i]);
      g_ptr_array_add (inputs, NULL);
      if (!grammar_check_output_not_input (output_path, (const char * const *) inputs->pdata, &error))
        return grammar_cli_report ("report", error);
    }

  /* Written as it is made (the records are read once, the lists again
   * while they are written), straight to the standard output or to a
   * file replaced once it is whole. */
  if (output_path == NULL)
    {
      fflush (stdout);
      out = g_unix_output_stream_new (STDOUT_FILENO, FALSE);
    }
  if (!grammar_report_write_full (input, against, (const char * const *) assessed, (const guint *) cutoffs->data,
                                  cutoffs->len, balance, isnan (alpha) ? 0.05 : alpha, (guint) max_list, format,
                                  output_path, out, NULL, &error))
    return grammar_cli_report ("report", error);
  return GRAMMAR_EXIT_OK;
}
