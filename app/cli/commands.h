#pragma once

#include "cli_options.h"

#include <CLI/CLI.hpp>

namespace cx::cli {

/// Each command declares itself: addXxxCommand adds a CLI11 subcommand to `root` with its summary
/// and every option (one OptionList in one function of its cmd_*.cpp), and returns what runs it.
/// Throwing cx::InputError is the normal way to report bad input: main() prints it and exits 2.
CommandEntry addTopicsCommand(CLI::App& root);
CommandEntry addSweepCommand(CLI::App& root);
CommandEntry addHmmCommand(CLI::App& root);
CommandEntry addTreeCommand(CLI::App& root);
/// `run SESSION.cxproj --out DIR [--workspace NAME]` (cmd_run.cpp).
CommandEntry addRunCommand(CLI::App& root);
CommandEntry addGenerateCommand(CLI::App& root);
CommandEntry addConvertCommand(CLI::App& root);
CommandEntry addCrowdCommand(CLI::App& root);
CommandEntry addGenerateCrowdCommand(CLI::App& root);
/// `generate-tree`: synthetic tree-HMM cell types as binarized files (cmd_generate_tree.cpp).
CommandEntry addGenerateTreeCommand(CLI::App& root);
/// `binarize`: reads or peaks → ChromHMM binarized files (cmd_binarize.cpp).
CommandEntry addBinarizeCommand(CLI::App& root);

/// `enrichment --segments BED --coords DIR|FILES… [--anchors FILE…] --out DIR`
/// (cmd_enrichment.cpp): ChromHMM-compatible overlap and neighbourhood enrichment.
CommandEntry addEnrichmentCommand(CLI::App& root);

/// A new subcommand of `root` that keeps unknown options for OptionList::checkAfterParse (so
/// they are refused with "unknown option --NAME").
CLI::App* addSubcommand(CLI::App& root, const std::string& name, const std::string& summary);

} // namespace cx::cli
