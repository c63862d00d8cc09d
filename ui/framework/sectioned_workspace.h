#pragma once

#include "ui/framework/workspace.h"

#include <filesystem>
#include <functional>
#include <optional>

namespace cx::ui {

/// The session plumbing every workspace with a section of a .cxproj repeats, written once:
/// `Section` is its core/session type (kKey, fromSession, toJson). The workspace
///   class TreeWorkspace : public SectionedWorkspace<TreeWorkspace, cx::TreeSection>
/// implements `Section currentSection() const` (what is shown; m_pendingSection while one is
/// being restored) and `void openSection(const Section&)` (apply it; nothing may change before
/// readSession returns), optionally `void checkSection(const cx::Session&, const Section&)
/// const` (throws cx::InputError for what the section's reader accepts but the workspace
/// cannot show), and declares `friend SectionedWorkspace;` if those are private.
template <typename Derived, typename Section> class SectionedWorkspace : public Workspace {
public:
    using Workspace::Workspace;

    QString sessionKey() const override { return QString::fromLatin1(Section::kKey); }
    cx::SessionJson saveSession(const std::filesystem::path& sessionDirectory) const override {
        return derived().currentSection().toJson(sessionDirectory);
    }
    std::function<void()> readSession(const cx::Session& session,
                                      cx::PathResolver& resolver) override {
        const Section section = Section::fromSession(session, resolver);
        derived().checkSection(session, section);
        return [this, section] { derived().openSection(section); };
    }

protected:
    /// Nothing beyond what Section::fromSession checks (a workspace hides this to add checks).
    void checkSection(const cx::Session& /*session*/, const Section& /*section*/) const {}

    /// The section being restored while its data loads (what saveSession writes meanwhile;
    /// reset when the load is cancelled or fails).
    std::optional<Section> m_pendingSection;
    /// The last section applied: it carries the fields the workspace does not show, so a save
    /// keeps them.
    Section m_sessionBase;

private:
    Derived& derived() { return static_cast<Derived&>(*this); }
    const Derived& derived() const { return static_cast<const Derived&>(*this); }
};

} // namespace cx::ui
