// Platform profile loader (profiles/platforms/*.yaml; schema in profiles/README.md).
#include "platform.h"

#include "profile_error.h"
#include "profile_yaml.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace poet {
namespace {

struct Constant {
    const char* key;
    double Platform::*member;
    bool zeroAllowed;  // latencies and memory power may be zero; rates may not
    // What any device has, with room on both sides. Outside, the MILP's
    // coefficients leave what CLP computes with: a page-in latency of 1e17 s
    // aborted the process on CLP's assertion (|objective| < 1e25), and
    // 1e20 FLOP/J, an energy that decides nothing, turned a feasible
    // problem "proven infeasible".
    double least, most;
};

const Constant kConstants[] = {
    {"flop_per_second", &Platform::flop_per_second, false, 1, 1e18},
    {"flop_per_joule", &Platform::flop_per_joule, false, 1, 1e15},
    {"pagein_latency_s", &Platform::pagein_latency_s, true, 0, 1e3},
    {"pagein_throughput_bytes_per_s", &Platform::pagein_throughput_bytes_per_s, false, 1, 1e13},
    {"pageout_latency_s", &Platform::pageout_latency_s, true, 0, 1e3},
    {"pageout_throughput_bytes_per_s", &Platform::pageout_throughput_bytes_per_s, false, 1, 1e13},
    {"memory_power_w", &Platform::memory_power_w, true, 0, 1e4},
};

// As a profile writes it: "1000", "1e15" (printf's "1e+15" is not).
std::string shortNumber(double x)
{
    char text[32];
    std::snprintf(text, sizeof text, "%g", x);
    std::string s = text;
    if (const auto e = s.find("e+"); e != std::string::npos) s.erase(e + 1, s[e + 2] == '0' ? 2 : 1);
    return s;
}

class PlatformLoader {
public:
    explicit PlatformLoader(std::string file) : file_(std::move(file)) {}

    [[noreturn]] void fail(Where w, const std::string& field, const std::string& msg) const
    {
        throw ProfileError(file_, w.line, w.column, field, msg);
    }
    [[noreturn]] void fail(const YAML::Node& n, const std::string& field, const std::string& msg) const
    {
        fail(whereOf(n), field, msg);
    }

    // What stands where a plain number belongs, for the message: "expected
    // a number" alone did not say that `"0.33 W"` is quoted text.
    static std::string whatItIs(const YAML::Node& n)
    {
        std::string what = kindOf(n);
        if (n.IsScalar()) what += " '" + n.Scalar() + "' (write the number alone, unquoted)";
        return what;
    }

    double number(const YAML::Node& n, const std::string& field) const
    {
        if (!isPlainScalar(n)) fail(n, field, "expected a number, got " + whatItIs(n));
        const std::string& s = n.Scalar();
        const char* b = s.data();
        const char* e = s.data() + s.size();
        if (b != e && *b == '+') ++b;
        double x = 0;
        auto [p, ec] = std::from_chars(b, e, x);  // correctly rounded, like Python's float()
        if (ec == std::errc::result_out_of_range && p == e)
            fail(n, field, "'" + s + "' is beyond what a number here can hold");
        if (ec != std::errc() || p != e || b == e || !std::isfinite(x))
            fail(n, field, "expected a number, got '" + s + "' (write plain decimals, no arithmetic)");
        return x;
    }

    long long integer(const YAML::Node& n, const std::string& field) const
    {
        if (!isPlainScalar(n)) fail(n, field, "expected an integer, got " + whatItIs(n));
        const std::string& s = n.Scalar();
        long long x = 0;
        auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
        if (ec != std::errc() || p != s.data() + s.size() || s.empty()) fail(n, field, "expected an integer, got '" + s + "'");
        return x;
    }

    Platform load()
    {
        const YAML::Node root =
            loadProfileRoot(file_, [this](Where w, const std::string& f, const std::string& m) { fail(w, f, m); });
        if (!root.IsMap()) fail(root, "", "expected a mapping of platform constants");

        std::vector<std::string> allowed = {"description", "source", "dtype_bytes", "power_w"};
        for (const auto& c : kConstants) allowed.push_back(c.key);

        std::map<std::string, std::pair<YAML::Node, YAML::Node>> items;
        for (auto it = root.begin(); it != root.end(); ++it) {
            YAML::Node k = it->first;
            if (!k.IsScalar()) fail(k, "", "keys must be plain names");
            const std::string key = k.Scalar();
            if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
                std::string list;
                for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
                fail(k, key, "unknown key '" + key + "' (expected one of: " + list + ")");
            }
            if (items.count(key)) fail(k, key, "duplicate key '" + key + "'");
            items[key] = {k, it->second};
        }
        auto need = [&](const std::string& key) -> YAML::Node {
            auto it = items.find(key);
            if (it == items.end()) fail(root, key, "missing required constant '" + key + "'");
            if (it->second.second.IsNull()) fail(it->second.first, key, "'" + key + "' has no value");
            return it->second.second;
        };

        Platform p;
        if (items.count("description")) {
            YAML::Node d = items["description"].second;
            if (!d.IsScalar()) fail(d, "description", "expected a string");
            if (d.Scalar().find('\n') != std::string::npos)
                fail(d, "description", "a line break inside a one-line string (an unterminated quote?)");
            p.description = d.Scalar();
        }
        if (items.count("source")) {
            // A string, or a mapping from constant names to where each comes from.
            YAML::Node s = items["source"].second;
            if (s.IsMap()) {
                for (auto it = s.begin(); it != s.end(); ++it) {
                    const std::string key = it->first.Scalar();
                    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end() || key == "source" ||
                        key == "description")
                        fail(it->first, "source." + key, "unknown constant '" + key + "'");
                    if (!it->second.IsScalar()) fail(it->second, "source." + key, "expected a string");
                }
            } else if (!s.IsScalar()) {
                fail(s, "source", "expected a string or a mapping from constant names to strings");
            }
        }
        for (const auto& c : kConstants) {
            YAML::Node n = need(c.key);
            double x = number(n, c.key);
            if (x < 0 || (x == 0 && !c.zeroAllowed))
                fail(n, c.key, std::string("must be ") + (c.zeroAllowed ? "zero or more" : "positive") + ", got " + n.Scalar());
            if ((x != 0 && x < c.least) || x > c.most)
                fail(n, c.key,
                     "must be between " + shortNumber(c.least) +
                         " and " + shortNumber(c.most) + ", got " + n.Scalar() +
                         " (no device is that far out, and beyond it the solver's arithmetic loses its precision)");
            p.*(c.member) = x;
        }
        {
            YAML::Node n = need("dtype_bytes");
            long long b = integer(n, "dtype_bytes");
            if (b <= 0 || b > 64)
                fail(n, "dtype_bytes",
                     "must be a whole number of bytes from 1 to 64 (an element of the widest type), got " + n.Scalar());
            p.dtype_bytes = static_cast<int>(b);
        }
        if (items.count("power_w")) {  // for information only
            YAML::Node n = items["power_w"].second;
            if (number(n, "power_w") <= 0) fail(n, "power_w", "must be positive, got " + n.Scalar());
        }
        return p;
    }

private:
    std::string file_;
};

}  // namespace

Platform loadPlatform(const std::filesystem::path& file)
{
    Platform p = PlatformLoader(file.string()).load();
    p.name = file.stem().string();
    p.file = file.string();
    return p;
}

}  // namespace poet
