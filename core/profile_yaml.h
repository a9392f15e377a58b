#pragma once
// What the model and platform profile loaders share about YAML sources:
// reading one, where a node sits in its file, and the one check yaml-cpp
// does not make.
#include <functional>
#include <string>

#include <yaml-cpp/yaml.h>

namespace poet {

struct Where {
    int line = 0;    // 1-based, 0 when unknown
    int column = 0;  // 1-based, 0 when unknown
};

Where whereOf(const YAML::Node& n);

// A scalar written without quotes or a tag: a number, a name, a bool.
bool isPlainScalar(const YAML::Node& n);
// What a node is, for messages: "a mapping", "a list", "nothing", "a
// scalar", "a quoted string".
const char* kindOf(const YAML::Node& n);

// yaml-cpp accepts a quoted string that never ends (it folds the following
// lines into it). Profiles keep every quoted string on one line, so each
// scalar of `root` (parsed from `file`) whose quote does not close on its
// own line is reported where it opens, with its field path ("a.b[2]").
using ProfileFailure = std::function<void(Where where, const std::string& field, const std::string& message)>;
void checkQuotesClose(const YAML::Node& root, const std::string& file, const ProfileFailure& fail);

// A profile's root: `file` parsed, not empty, every quoted string closed.
// Each fault goes to `fail`, which must throw: a file that cannot be
// opened, a syntax error (where yaml-cpp marks it), an empty document.
YAML::Node loadProfileRoot(const std::string& file, const ProfileFailure& fail);

}  // namespace poet
