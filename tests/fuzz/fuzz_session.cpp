// libFuzzer target: project sessions (.cxproj, core/session): envelope, migration, the topics
// and chromatin sections with path resolution (missing files give up), and serialisation.
#include "core/session/chromatin_section.h"
#include "core/session/session.h"
#include "core/session/session_paths.h"
#include "core/session/topics_section.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto file = cx::fuzz::scratchDirectory() / "fuzz.cxproj";
    // Data that seeds can name ("data.txt", the folder "data"), so sections get past resolving.
    static const bool dataReady = [] {
        cx::fuzz::writeScratch("data.txt", "x");
        cx::fuzz::writeScratch("data/a.txt", "x");
        return true;
    }();
    (void)dataReady;
    cx::fuzz::expectOnlyInputErrors([&] {
        cx::Session session = cx::parseSession(text, file);
        cx::serializeSession(session, cx::fuzz::scratchDirectory() / "sub" / "again.cxproj");
        if (session.hasSection(cx::TopicsSection::kKey)) {
            cx::PathResolver resolver(file);
            cx::fuzz::expectOnlyInputErrors(
                [&] { cx::TopicsSection::fromSession(session, resolver); });
        }
        if (session.hasSection(cx::ChromatinSection::kKey)) {
            cx::PathResolver resolver(file);
            cx::ChromatinSection::fromSession(session, resolver);
        }
    });
    return 0;
}
