# The ui folders and what each may include: one list serves the build (each folder is a STATIC
# library linking exactly these; ui/CMakeLists.txt) and the IncludeRules test
# (ui/check_include_rules.cmake, which fails on any "ui/<folder>/" include a folder does not
# declare here). Shared folders come first and never name a workspace; a workspace names
# shared folders only; the shell hosts the workspaces. A new workspace adds one line here (and
# its name to the shell's line). Two folders that need each other are a bug: move the piece
# they share down into widgets, views, charts, framework or core.
set(CX_UI_FOLDERS widgets charts views framework dialogs topics chromatin tree crowd shell)

set(CX_UI_DEPENDS_widgets)                                      # generic widgets, models, export
set(CX_UI_DEPENDS_charts    widgets)                            # QtCharts views
set(CX_UI_DEPENDS_views     widgets)                            # custom-painted views
set(CX_UI_DEPENDS_framework widgets)                            # Workspace, controllers, workers
set(CX_UI_DEPENDS_dialogs   framework widgets)                  # export and open dialogs
set(CX_UI_DEPENDS_topics    framework widgets charts dialogs)
set(CX_UI_DEPENDS_chromatin framework widgets charts views dialogs)
set(CX_UI_DEPENDS_tree      framework widgets views dialogs)
set(CX_UI_DEPENDS_crowd     framework widgets charts views dialogs)
set(CX_UI_DEPENDS_shell     framework widgets dialogs topics chromatin tree crowd)
