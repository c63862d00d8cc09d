#pragma once

// `contrast-cli hmm --k-range A:B`: how many states — cx::chooseStateCount
// over the tracks, written as k_range.tsv and compare_models.tsv.

#include "hmm_job.h"

#include <string>

namespace cx::cli {

/// Parses A:B (1 ≤ A ≤ B). \throws InputError naming --k-range.
std::pair<int, int> parseKRange(const std::string& text);

/// Reads the tracks of `options` (whole tracks; foreground/background regions are refused),
/// fits K = A…B at γ = 0 with options' solve and refinement settings, writes k_range.tsv
/// (one row per K: log-likelihood, per bin, held-out moment residual, CompareModels minimum
/// and mean, suggested) and compare_models.tsv (ChromHMM CompareModels: one row per state of
/// the largest model, one column per K) into `outDir`, and prints a summary (JSON with
/// `json`). Returns the exit code.
int runHmmKRange(const HmmJobOptions& options, const std::string& range, const std::string& outDir,
                 bool json);

} // namespace cx::cli
