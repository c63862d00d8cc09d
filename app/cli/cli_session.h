#pragma once

// Sessions from the command line: a command's options as a workspace section of a .cxproj
// (`--save-session FILE`) and back (`contrast-cli run FILE.cxproj`), so `run` repeats the
// command that saved the session through the same job and writers.

#include "hmm_job.h"
#include "topic_session.h"

#include "core/session/chromatin_section.h"
#include "core/session/topics_section.h"
#include "core/session/tree_section.h"

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace cx::cli {

/// The Topics section describing `topics`/`sweep` with these options. `command` is the
/// command's name ("topics" or "sweep"), recorded as the section's saved_by.
TopicsSection topicsSectionOf(const TopicSession& session, double gamma,
                              const std::string& positiveRule, const std::string& gammas,
                              const std::string& command);
/// Sets the options of `session` (corpus, reader, rules, model, engine, smoothing, top words)
/// from a section.
void applyTopicsSection(const TopicsSection& section, TopicSession& session);

/// The Chromatin section describing `hmm` with these options (regions as annotations with the
/// foreground/background role).
ChromatinSection chromatinSectionOf(const HmmJobOptions& options);
/// The `hmm` options a section describes, validated. \throws InputError.
HmmJobOptions hmmOptionsOf(const ChromatinSection& section);

/// The `tree` arguments (without --out) a section describes: `contrast-cli run` passes them to
/// the tree command, so it writes what `tree --save-session` would have written.
std::vector<std::string> treeArgumentsOf(const TreeSection& section);

/// `--save-session FILE`: writes the section `sectionJson(FILE's folder)` as the `key`
/// workspace of the session FILE (atomic; its folder is created), keeping the other workspaces of
/// an existing session, which becomes active on `key`. \throws InputError naming FILE.
void saveSessionSection(
    const std::string& file, const std::string& key,
    const std::function<SessionJson(const std::filesystem::path& sessionDirectory)>& sectionJson);

} // namespace cx::cli
