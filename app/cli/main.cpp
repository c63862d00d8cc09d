// contrast-cli: batch access to Contrast Explorer's core. See README.md ("Command line").
// The command line is parsed by CLI11: one subcommand per command, declared in its cmd_*.cpp.
#include "commands.h"

#include "core/common/error.h"

#include <algorithm>
#include <exception>
#include <iostream>
#include <new>

namespace cx::cli {

CLI::App* addSubcommand(CLI::App& root, const std::string& name, const std::string& summary) {
    CLI::App* app = root.add_subcommand(name, summary);
    app->allow_extras();
    return app;
}

namespace {

std::vector<CommandEntry> addAllCommands(CLI::App& root) {
    return {addTopicsCommand(root),   addSweepCommand(root),      addHmmCommand(root),
            addTreeCommand(root),     addRunCommand(root),        addGenerateCommand(root),
            addConvertCommand(root),  addCrowdCommand(root),      addGenerateCrowdCommand(root),
            addBinarizeCommand(root), addEnrichmentCommand(root), addGenerateTreeCommand(root)};
}

int reportError(const std::string& command, const char* message, int code) {
    std::cerr << "contrast-cli" << (command.empty() ? "" : " " + command) << ": error: " << message
              << "\n";
    return code;
}

} // namespace

} // namespace cx::cli

int main(int argc, char** argv) {
    using namespace cx::cli;
    CLI::App root("contrast-cli — Contrast Explorer batch tool", "contrast-cli");
    root.require_subcommand(0, 1);
    // Subcommands copy the formatter when added.
    root.formatter(makeHelpFormatter());
    root.footer("Rules select documents by label: FIELD=V1,V2 (has any of the values), !FIELD=V "
                "(negation),\n'A;B' (both). '*' selects every document. "
                "`contrast-cli COMMAND --help` lists a command's options.");
    const std::vector<CommandEntry> entries = addAllCommands(root);
    if (argc < 2) {
        std::cerr << root.help();
        return 2;
    }
    const std::string name = argv[1];
    const bool known = std::any_of(entries.begin(), entries.end(), [&](const CommandEntry& entry) {
        return entry.app->get_name() == name;
    });
    if (!name.empty() && name[0] != '-' && !known) {
        std::cerr << "contrast-cli: unknown command '" << name << "' (try --help)\n";
        return 2;
    }
    const std::string command = name[0] == '-' ? std::string() : name;
    try {
        root.parse(argc, argv);
        for (const auto& entry : entries) {
            if (entry.app->parsed()) {
                return entry.run();
            }
        }
        std::cout << root.help();
        return 0;
    } catch (const CLI::CallForHelp& help) {
        return root.exit(help);
    } catch (const CLI::CallForAllHelp& help) {
        return root.exit(help);
    } catch (const CLI::ParseError& error) {
        return reportError(command, error.what(), 2);
    } catch (const cx::InputError& error) {
        return reportError(command, error.what(), 2);
    } catch (const std::bad_alloc&) {
        return reportError(command, "out of memory", 3);
    } catch (const std::exception& error) {
        return reportError(command, error.what(), 1);
    }
}
