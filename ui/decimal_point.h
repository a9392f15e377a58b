#pragma once
// The explorer shows and reads numbers with a decimal point, whatever the
// desktop's locale: what is typed into its boxes is parsed as the CLI parses
// it (core/ram_budget_text.h), and what it exports (CSV, figures) must read
// the same everywhere. Without this a German desktop showed "7,8895 J" beside
// "1.00x", its plot ticks read "0,5", and snprintf in any library it calls
// wrote "1,5" into comma-separated files.
namespace poet::ui {

// Call right after QApplication exists (on Unix its constructor sets the C
// library's locale from the environment): sets LC_NUMERIC back to "C" and
// Qt's default locale to QLocale::c(), so spin boxes and plot axes follow.
void useDecimalPoint();

}  // namespace poet::ui
