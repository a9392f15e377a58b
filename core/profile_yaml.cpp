#include "profile_yaml.h"

#include <algorithm>
#include <climits>
#include <filesystem>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <set>
#include <utility>
#include <vector>

namespace poet {

namespace {

bool quoteClosesOnLine(const std::string& line, std::size_t col)
{
    if (col >= line.size()) return true;
    const char q = line[col];
    if (q != '"' && q != '\'') return true;  // block scalar (| or >) or unknown
    for (std::size_t i = col + 1; i < line.size(); ++i) {
        if (q == '"' && line[i] == '\\') {
            ++i;
        } else if (line[i] == q) {
            if (q == '\'' && i + 1 < line.size() && line[i + 1] == '\'') {  // '' inside single quotes
                ++i;
                continue;
            }
            return true;
        }
    }
    return false;
}

// Each list and mapping once: an alias is the node its anchor made, at
// the anchor's mark. Nine levels of ten aliases each, in keys no loader
// reads, were 10^9 visits, and `poet list` did not end.
using Visited = std::set<std::pair<int, int>>;

void checkNode(const YAML::Node& n, const std::string& path, const std::vector<std::string>& lines,
               const ProfileFailure& fail, Visited& visited)
{
    if ((n.IsMap() || n.IsSequence()) && !n.Mark().is_null() &&
        !visited.insert({n.Mark().line, n.Mark().column}).second)
        return;
    if (n.IsMap()) {
        for (auto it = n.begin(); it != n.end(); ++it) {
            const std::string key = it->first.IsScalar() ? it->first.Scalar() : "?";
            checkNode(it->first, path, lines, fail, visited);
            checkNode(it->second, path.empty() ? key : path + "." + key, lines, fail, visited);
        }
    } else if (n.IsSequence()) {
        for (std::size_t i = 0; i < n.size(); ++i)
            checkNode(n[i], path + "[" + std::to_string(i) + "]", lines, fail, visited);
    } else if (n.IsScalar() && n.Tag() != "?") {
        const YAML::Mark m = n.Mark();
        if (m.is_null() || m.line < 0 || static_cast<std::size_t>(m.line) >= lines.size()) return;
        if (!quoteClosesOnLine(lines[m.line], static_cast<std::size_t>(m.column)))
            fail(Where{m.line + 1, m.column + 1}, path,
                 "this quoted string does not end on its line (unterminated quote?)");
    }
}

// The first line up to `last` (1-based) indented with a tab, or 0. yaml-cpp
// reports a tab as "illegal block entry" or "end of map not found", which
// does not point at it.
int firstTabIndentedLine(const std::string& file, int last)
{
    std::ifstream in(file);
    int number = 0;
    for (std::string l; number < last && std::getline(in, l);) {
        ++number;
        const auto text = l.find_first_not_of(" \t");
        if (l.find('\t') < std::min(text, l.size())) return number;
    }
    return 0;
}

// Where `text` stops being UTF-8 text: the offset of its first byte that is
// no part of a well-formed UTF-8 sequence (or a NUL: no text file holds one),
// text.size() where there is none. A Latin-1 layer name loaded, and the
// schedule's JSON failed after the solve ("invalid UTF-8 byte", exit 1); a
// binary file read as "unknown escape character".
std::size_t firstNonTextByte(const std::string& text)
{
    const auto* b = reinterpret_cast<const unsigned char*>(text.data());
    for (std::size_t i = 0; i < text.size();) {
        const unsigned char c = b[i];
        if (c == 0) return i;
        const int follow = c < 0x80 ? 0 : (c >> 5) == 0x6 ? 1 : (c >> 4) == 0xE ? 2 : (c >> 3) == 0x1E ? 3 : -1;
        if (follow < 0 || i + static_cast<std::size_t>(follow) >= text.size()) return i;
        for (int k = 1; k <= follow; ++k)
            if ((b[i + k] & 0xC0) != 0x80) return i;
        // Overlong forms, surrogates and code points past U+10FFFF are no UTF-8.
        const unsigned next = follow > 0 ? b[i + 1] : 0;
        if ((follow == 1 && c < 0xC2) || (follow == 2 && c == 0xE0 && next < 0xA0) ||
            (follow == 2 && c == 0xED && next >= 0xA0) || (follow == 3 && c == 0xF0 && next < 0x90) ||
            (follow == 3 && (c > 0xF4 || (c == 0xF4 && next >= 0x90))))
            return i;
        i += static_cast<std::size_t>(follow) + 1;
    }
    return text.size();
}

// The file's text, once it is known to be a readable regular file of UTF-8
// text; fails otherwise. A FIFO named like a profile hung `poet list`.
std::string profileText(const std::string& file, const ProfileFailure& fail)
{
    std::error_code ec;
    if (std::filesystem::is_directory(file, ec)) fail(Where{}, "", "is a folder, not a profile file");
    if (std::filesystem::is_symlink(std::filesystem::symlink_status(file, ec)) &&
        !std::filesystem::exists(file, ec))
        fail(Where{}, "", "a link to " + std::filesystem::read_symlink(file, ec).string() + ", which does not exist");
    if (std::filesystem::exists(file, ec) && !std::filesystem::is_regular_file(file, ec))
        fail(Where{}, "", "is a FIFO, socket or device, not a profile file");
    std::ifstream in(file, std::ios::binary);
    if (!in) fail(Where{}, "", "cannot open the file");
    std::ostringstream read;
    read << in.rdbuf();
    std::string text = read.str();
    if (const std::size_t bad = firstNonTextByte(text); bad < text.size()) {
        const std::size_t line_start = text.rfind('\n', bad == 0 ? 0 : bad - 1);
        const int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(bad), '\n'));
        const int column = static_cast<int>(bad - (line_start == std::string::npos ? 0 : line_start + 1)) + 1;
        char byte[8];
        std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned char>(text[bad]));
        fail(Where{line, column}, "",
             std::string("not UTF-8 text (byte ") + byte +
                 (text[bad] == 0 ? "; a binary file?" : "; save the file as UTF-8") + ")");
    }
    return text;
}

}  // namespace

Where whereOf(const YAML::Node& n)
{
    if (!n.IsDefined()) return {};
    const YAML::Mark m = n.Mark();
    if (m.is_null() || m.line < 0) return {};
    return {m.line + 1, m.column + 1};
}

void checkQuotesClose(const YAML::Node& root, const std::string& file, const ProfileFailure& fail)
{
    std::vector<std::string> lines;
    std::ifstream in(file);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    Visited visited;
    checkNode(root, "", lines, fail, visited);
}

YAML::Node loadProfileRoot(const std::string& file, const ProfileFailure& fail)
{
    const std::string text = profileText(file, fail);
    YAML::Node root;
    try {
        root = YAML::Load(text);
    } catch (const YAML::Exception& e) {
        Where w;
        if (!e.mark.is_null()) w = {e.mark.line + 1, e.mark.column + 1};
        std::string hint;
        if (const int tab = firstTabIndentedLine(file, e.mark.is_null() ? INT_MAX : e.mark.line + 1))
            hint = " (line " + std::to_string(tab) + " is indented with a tab; YAML indents with spaces only)";
        fail(w, "", "YAML syntax error: " + e.msg + hint);
    }
    if (!root.IsDefined() || root.IsNull()) fail(Where{1, 1}, "", "the profile is empty");
    checkQuotesClose(root, file, fail);
    return root;
}

bool isPlainScalar(const YAML::Node& n)
{
    return n.IsScalar() && n.Tag() == "?";
}

const char* kindOf(const YAML::Node& n)
{
    if (n.IsMap()) return "a mapping";
    if (n.IsSequence()) return "a list";
    if (n.IsNull()) return "nothing";
    if (n.IsScalar()) return isPlainScalar(n) ? "a scalar" : "a quoted string";
    return "an undefined value";
}

}  // namespace poet
