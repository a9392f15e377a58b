// Model profile loader: expands the YAML schema described in profiles/README.md
// (layers, reusable blocks with arguments, named references) into a Network,
// computing shapes, flop and parameter counts with the POET reference's
// formulas (poet/power_computation.py, poet/power_computation_transformer.py).
#include "network.h"

#include "profile_error.h"
#include "profile_yaml.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace poet {
namespace {

using i64 = std::int64_t;
using Shape = std::vector<i64>;

// ---------------------------------------------------------------- basics

std::string join(const std::string& path, const std::string& key)
{
    return path.empty() ? key : path + "." + key;
}

std::string indexed(const std::string& path, std::size_t i)
{
    return path + "[" + std::to_string(i) + "]";
}

std::string shapeStr(const Shape& s)
{
    std::string r = "[";
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (i) r += ", ";
        r += std::to_string(s[i]);
    }
    return r + "]";
}

std::string listStr(const std::vector<std::string>& v)
{
    std::string r;
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (i) r += ", ";
        r += v[i];
    }
    return r;
}

// A value as written in the profile: its node, the field path where it was
// written and its location (kept separately so that synthesized values, such
// as the implicit $input of a block, can point at the block row).
struct Val {
    YAML::Node node;
    std::string field;
    Where where;
    // Set on values passed through a variable: used as a layer name, the value
    // is looked up in the scope where it was written (refScope is that scope's
    // name prefix), not where it is used.
    bool hasScope = false;
    std::string refScope;

    Val() = default;
    Val(YAML::Node n, std::string f, Where w) : node(std::move(n)), field(std::move(f)), where(w) {}
    Val(const Val& o) = default;
    // YAML::Node's operator= overwrites the node it refers to (it edits the
    // document); rebind instead.
    Val& operator=(const Val& o)
    {
        node.reset(o.node);
        field = o.field;
        where = o.where;
        hasScope = o.hasScope;
        refScope = o.refScope;
        return *this;
    }
};

Val valOf(const YAML::Node& n, const std::string& field)
{
    return {n, field, whereOf(n)};
}

class Loader;

// A mapping of the profile, with duplicate-key detection and unknown-key checks.
class MapView {
public:
    MapView(const Loader& l, const YAML::Node& n, std::string path);
    // Fails naming the first key not in `allowed`.
    void allowOnly(const std::vector<std::string>& allowed) const;
    std::optional<Val> get(const std::string& key) const;
    Val need(const std::string& key) const;
    bool has(const std::string& key) const { return index_.count(key) != 0; }
    const YAML::Node& node() const { return node_; }
    const std::string& path() const { return path_; }
    std::vector<std::pair<std::string, Val>> entries() const;

private:
    const Loader& loader_;
    YAML::Node node_;
    std::string path_;
    std::vector<std::pair<std::string, std::pair<YAML::Node, YAML::Node>>> items_;
    std::map<std::string, std::size_t> index_;
};

// -------------------------------------------------------------- scopes

struct BlockDef {
    std::string name;
    std::string path;  // "blocks.<name>"
    YAML::Node node;
    std::vector<std::string> params;
    Val layers;                        // the block's layer list
    std::set<std::string> localNames;  // names of the rows of its body
};

struct Scope {
    std::string prefix;  // "" at top level, "layer1.0." inside an instance
    std::map<std::string, Val> vars;
    const BlockDef* block = nullptr;
    // Inside an instance: the name of the top-level row that made it, where
    // a name it makes twice is the user's to change (not the block's rows).
    std::optional<Val> instanceName;
};

// -------------------------------------------------------------- loader

// Whether UTF-8 `s` holds a C1 control (U+0080..U+009F: NEL breaks a line
// for some readers), a line or paragraph separator (U+2028, U+2029) or a
// text-direction control (U+202A..U+202E, U+2066..U+2069): line-based tools
// split a CSV row at the first ones, and the last turn a name around.
bool hasInvisibleBreakOrTurn(const std::string& s)
{
    for (std::size_t i = 0; i + 1 < s.size(); ++i) {
        const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
        if (b(i) == 0xC2 && b(i + 1) >= 0x80 && b(i + 1) <= 0x9F) return true;
        if (i + 2 < s.size() && b(i) == 0xE2 && b(i + 1) == 0x80 && b(i + 2) >= 0xA8 && b(i + 2) <= 0xAE) return true;
        if (i + 2 < s.size() && b(i) == 0xE2 && b(i + 1) == 0x81 && b(i + 2) >= 0xA6 && b(i + 2) <= 0xA9) return true;
    }
    return false;
}

// The problem grows with the square of the layers: resnet50's 168 make
// ~0.8M binaries; 600 (a chain of relus) make 2.9M variables and take 1 GB
// and 16 s for `poet info` alone, 1,000 took 2.7 GB and more, and 10,000 ran
// the machine out of memory. ResNet-152 at this granularity is ~510.
constexpr std::size_t kMostLayers = 600;

class Loader {
public:
    explicit Loader(std::string file) : file_(std::move(file)) {}

    [[noreturn]] void fail(Where w, const std::string& field, const std::string& msg) const
    {
        throw ProfileError(file_, w.line, w.column, field, msg);
    }
    [[noreturn]] void fail(const Val& v, const std::string& msg) const { fail(v.where, v.field, msg); }
    [[noreturn]] void fail(const YAML::Node& n, const std::string& field, const std::string& msg) const
    {
        fail(whereOf(n), field, msg);
    }

    Network load(int batchOverride);

private:
    // ---- scalars
    std::string str(const Val& v) const
    {
        if (!v.node.IsScalar()) fail(v, std::string("expected a string, got ") + kindOf(v.node));
        if (v.node.Scalar().find('\n') != std::string::npos)
            fail(v, "a line break inside a one-line string (an unterminated quote?)");
        return v.node.Scalar();
    }
    // A layer's or a block instance's name. "grad " starts the backward
    // pass's names (cost_model.cpp): a layer "grad input" made a second
    // node of that name, and the CSV and JSON columns two alike. A control
    // character showed as a box in every view.
    std::string name(const Val& v) const
    {
        std::string n = str(v);
        if (n.empty() || n.find('.') != std::string::npos || n[0] == '$')
            fail(v, "a name must be non-empty and contain no '.' or leading '$'");
        if (n.rfind("grad ", 0) == 0)
            fail(v, "'" + n + "': names starting with \"grad \" are the backward pass's (\"grad <layer>\")");
        if (std::any_of(n.begin(), n.end(), [](unsigned char c) { return c < 0x20 || c == 0x7f; }) ||
            hasInvisibleBreakOrTurn(n))
            fail(v, "a name may not contain control characters (tabs, line breaks, text-direction marks)");
        return n;
    }
    i64 integer(const Val& v) const
    {
        if (!isPlainScalar(v.node)) fail(v, std::string("expected an integer, got ") + kindOf(v.node));
        const std::string& s = v.node.Scalar();
        i64 x = 0;
        const char* b = s.data();
        const char* e = s.data() + s.size();
        if (b != e && *b == '+') ++b;
        auto [p, ec] = std::from_chars(b, e, x);
        if (ec != std::errc() || p != e || b == e) fail(v, "expected an integer, got '" + s + "'");
        return x;
    }
    bool boolean(const Val& v) const
    {
        if (isPlainScalar(v.node)) {
            const std::string& s = v.node.Scalar();
            if (s == "true" || s == "True" || s == "TRUE") return true;
            if (s == "false" || s == "False" || s == "FALSE") return false;
        }
        fail(v, "expected true or false");
    }

    // ---- substitution of $variables
    Val resolve(const Val& v, const Scope& sc) const
    {
        if (isPlainScalar(v.node)) {
            const std::string& s = v.node.Scalar();
            if (!s.empty() && s[0] == '$') {
                auto it = sc.vars.find(s.substr(1));
                if (it == sc.vars.end()) {
                    std::vector<std::string> known;
                    for (const auto& [k, _] : sc.vars) known.push_back("$" + k);
                    fail(v, "unknown variable '" + s + "' (known here: " + listStr(known) + ")");
                }
                return it->second;
            }
        }
        return v;
    }
    i64 positive(const Val& raw, const Scope& sc, i64 min = 1) const
    {
        Val v = resolve(raw, sc);
        i64 x = integer(v);
        if (x < min)
            fail(v, "must be " + std::string(min == 0 ? "zero or more" : min == 1 ? "positive" : ">= " + std::to_string(min)) +
                        ", got " + std::to_string(x));
        return x;
    }
    // An int or a list [h, w] (each may be a $variable).
    std::pair<i64, i64> pair(const Val& raw, const Scope& sc, i64 min) const
    {
        Val v = resolve(raw, sc);
        if (v.node.IsSequence()) {
            if (v.node.size() != 2) fail(v, "expected [height, width], got a list of " + std::to_string(v.node.size()));
            return {positive(valOf(v.node[0], indexed(v.field, 0)), sc, min),
                    positive(valOf(v.node[1], indexed(v.field, 1)), sc, min)};
        }
        i64 x = positive(v, sc, min);
        return {x, x};
    }

    // ---- structure
    void parseBlocks(const MapView& top);
    void expand(const Val& list, const Scope& sc, std::vector<std::string>& stack);
    void addBlockInstance(const MapView& row, const Scope& sc, std::vector<std::string>& stack);
    void addLayer(const MapView& row, const Scope& sc);
    int resolveRef(const Val& raw, const Scope& sc) const;

    i64 mul(i64 a, i64 b, const Val& at) const
    {
        i64 r = 0;
        if (__builtin_mul_overflow(a, b, &r)) fail(at, "numbers too large (64-bit overflow)");
        return r;
    }
    i64 add(i64 a, i64 b, const Val& at) const
    {
        i64 r = 0;
        if (__builtin_add_overflow(a, b, &r)) fail(at, "numbers too large (64-bit overflow)");
        return r;
    }
    i64 prod(const Shape& s, const Val& at) const
    {
        i64 r = 1;
        for (i64 x : s) r = mul(r, x, at);
        return r;
    }

    friend class MapView;
    std::string file_;
    Network net_;
    std::map<std::string, int> byName_;
    std::map<std::string, BlockDef> blocks_;
    // The names the rows of `layers` give, known before they are read, and
    // whether the row is a block instance (its layers are "name.layer").
    std::map<std::string, bool> topNames_;
    Val batchVal_;
};

MapView::MapView(const Loader& l, const YAML::Node& n, std::string path) : loader_(l), node_(n), path_(std::move(path))
{
    if (!n.IsMap()) loader_.fail(n, path_, std::string("expected a mapping, got ") + kindOf(n));
    for (auto it = n.begin(); it != n.end(); ++it) {
        YAML::Node k = it->first;
        if (!k.IsScalar()) loader_.fail(k, path_, "keys must be plain names");
        const std::string& key = k.Scalar();
        if (index_.count(key)) loader_.fail(k, join(path_, key), "duplicate key '" + key + "'");
        index_[key] = items_.size();
        items_.push_back({key, {k, it->second}});
    }
}

void MapView::allowOnly(const std::vector<std::string>& allowed) const
{
    for (const auto& [key, kv] : items_) {
        if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
            loader_.fail(kv.first, join(path_, key), "unknown key '" + key + "' (expected one of: " + listStr(allowed) + ")");
    }
}

std::optional<Val> MapView::get(const std::string& key) const
{
    auto it = index_.find(key);
    if (it == index_.end()) return std::nullopt;
    return valOf(items_[it->second].second.second, join(path_, key));
}

Val MapView::need(const std::string& key) const
{
    auto v = get(key);
    if (!v) loader_.fail(node_, join(path_, key), "missing required key '" + key + "'");
    if (v->node.IsNull()) loader_.fail(*v, "'" + key + "' has no value");
    return *v;
}

std::vector<std::pair<std::string, Val>> MapView::entries() const
{
    std::vector<std::pair<std::string, Val>> r;
    for (const auto& [key, kv] : items_) r.push_back({key, valOf(kv.second, join(path_, key))});
    return r;
}

// --------------------------------------------------------------- types

struct TypeSpec {
    const char* name;
    int arity;  // number of inputs
    std::vector<std::string> keys;  // type-specific keys
};

const std::vector<TypeSpec>& typeSpecs()
{
    static const std::vector<TypeSpec> specs = {
        {"input", 0, {"shape"}},
        {"conv2d", 1, {"in_channels", "out_channels", "kernel", "stride", "padding"}},
        {"batchnorm2d", 1, {}},
        {"relu", 1, {}},
        {"maxpool2d", 1, {"kernel", "stride"}},
        {"avgpool2d", 1, {"kernel", "stride"}},
        {"global_avgpool", 1, {}},
        {"linear", 1, {"in_features", "out_features"}},
        {"linear_relu", 1, {"in_features", "out_features"}},
        {"flatten", 1, {}},
        {"dropout", 1, {}},
        {"tanh", 1, {}},
        {"sigmoid", 1, {}},
        {"skip_add", 2, {"zero_pad"}},
        {"cross_entropy", 1, {"n_classes"}},
        {"qkv_matrix", 1, {"seq_len", "hidden_dim", "i", "heads"}},
        {"qkt_matrix", 1, {"seq_len", "hidden_dim", "i", "heads"}},
        {"mask", 1, {}},
        {"qktv_matrix", 1, {"seq_len", "hidden_dim", "i", "heads"}},
        {"concat", 1, {"seq_len", "hidden_dim", "i", "heads"}},
    };
    return specs;
}

const TypeSpec* findType(const std::string& name)
{
    for (const auto& t : typeSpecs())
        if (name == t.name) return &t;
    return nullptr;
}

// ------------------------------------------------------------- loading

Network Loader::load(int batchOverride)
{
    const YAML::Node root =
        loadProfileRoot(file_, [this](Where w, const std::string& f, const std::string& m) { fail(w, f, m); });

    MapView top(*this, root, "");
    top.allowOnly({"description", "batch_size", "blocks", "layers"});
    if (auto d = top.get("description")) net_.description = str(*d);
    i64 batch = 1;
    if (auto b = top.get("batch_size")) {
        batch = integer(*b);
        if (batch < 1) fail(*b, "must be positive, got " + std::to_string(batch));
        if (batch > std::numeric_limits<int>::max()) fail(*b, "too large");
    }
    if (batchOverride > 0) batch = batchOverride;
    net_.batch_size = static_cast<int>(batch);
    std::string batchText = std::to_string(batch);
    batchVal_ = {YAML::Node(batchText), "batch_size", {}};
    if (auto b = top.get("batch_size")) batchVal_.where = b->where;
    // A scalar built in code is "?"-tagged only when it has no tag; make it plain.
    batchVal_.node.SetTag("?");

    parseBlocks(top);

    Val layers = top.need("layers");
    if (layers.node.IsSequence())
        for (const YAML::Node& row : layers.node)
            if (row.IsMap() && row["name"].IsDefined() && row["name"].IsScalar())
                topNames_[row["name"].Scalar()] = row["block"].IsDefined();
    Scope sc;
    sc.vars["batch"] = batchVal_;
    std::vector<std::string> stack;
    expand(layers, sc, stack);

    // Structure: one input first, one loss last.
    if (net_.layers.empty()) fail(layers, "no layers");
    if (net_.layers.front().type != "input") fail(layers, "the first layer must be of type input");
    if (net_.layers.back().type != "cross_entropy")
        fail(layers, "the last layer must be the loss (type cross_entropy), not '" + net_.layers.back().name + "'");
    return std::move(net_);
}

void Loader::parseBlocks(const MapView& top)
{
    auto blocks = top.get("blocks");
    if (!blocks || blocks->node.IsNull()) return;
    MapView bm(*this, blocks->node, "blocks");
    for (const auto& [name, v] : bm.entries()) {
        MapView b(*this, v.node, v.field);
        b.allowOnly({"description", "params", "layers"});
        BlockDef def;
        def.name = name;
        def.path = v.field;
        def.node = v.node;
        if (auto d = b.get("description")) str(*d);
        if (auto p = b.get("params")) {
            if (!p->node.IsSequence()) fail(*p, std::string("expected a list of names, got ") + kindOf(p->node));
            for (std::size_t i = 0; i < p->node.size(); ++i) {
                Val pv = valOf(p->node[i], indexed(p->field, i));
                std::string pn = str(pv);
                if (pn.empty() || pn[0] == '$') fail(pv, "parameter names are written without '$'");
                if (pn == "batch" || pn == "input") fail(pv, "'" + pn + "' is a built-in variable");
                if (std::find(def.params.begin(), def.params.end(), pn) != def.params.end())
                    fail(pv, "duplicate parameter '" + pn + "'");
                def.params.push_back(pn);
            }
        }
        def.layers = b.need("layers");
        if (!def.layers.node.IsSequence() || def.layers.node.size() == 0)
            fail(def.layers, "expected a non-empty list of layers");
        for (std::size_t i = 0; i < def.layers.node.size(); ++i) {
            YAML::Node row = def.layers.node[i];
            if (row.IsMap() && row["name"].IsDefined() && row["name"].IsScalar()) def.localNames.insert(row["name"].Scalar());
        }
        blocks_[name] = std::move(def);
    }
}

void Loader::expand(const Val& list, const Scope& sc, std::vector<std::string>& stack)
{
    if (!list.node.IsSequence()) fail(list, std::string("expected a list of layers, got ") + kindOf(list.node));
    for (std::size_t i = 0; i < list.node.size(); ++i) {
        MapView row(*this, list.node[i], indexed(list.field, i));
        if (row.has("block"))
            addBlockInstance(row, sc, stack);
        else
            addLayer(row, sc);
    }
}

void Loader::addBlockInstance(const MapView& row, const Scope& sc, std::vector<std::string>& stack)
{
    row.allowOnly({"name", "block", "repeat", "args", "first"});
    Val nameV = row.need("name");
    const std::string name = this->name(nameV);
    Val blockV = row.need("block");
    std::string blockName = str(blockV);
    auto bit = blocks_.find(blockName);
    if (bit == blocks_.end()) {
        std::vector<std::string> known;
        for (const auto& [k, _] : blocks_) known.push_back(k);
        fail(blockV, "unknown block '" + blockName + "' (defined blocks: " + (known.empty() ? "none" : listStr(known)) + ")");
    }
    const BlockDef& def = bit->second;
    if (std::find(stack.begin(), stack.end(), blockName) != stack.end())
        fail(blockV, "block '" + blockName + "' uses itself (" + listStr(stack) + ")");

    bool repeated = row.has("repeat");
    i64 repeat = 1;
    if (auto r = row.get("repeat")) repeat = positive(*r, sc);
    if (repeat > 100000) fail(*row.get("repeat"), "too many repetitions");

    auto readArgs = [&](const char* key) {
        std::map<std::string, Val> out;
        auto a = row.get(key);
        if (!a || a->node.IsNull()) return out;
        MapView am(*this, a->node, a->field);
        if (def.params.empty() && !am.entries().empty())
            fail(am.entries().front().second, "block '" + blockName + "' takes no arguments");
        am.allowOnly(def.params);
        for (const auto& [k, v] : am.entries()) {
            Val r = resolve(v, sc);
            if (!r.hasScope) {
                r.hasScope = true;
                r.refScope = sc.prefix;
            }
            out[k] = r;
        }
        return out;
    };
    std::map<std::string, Val> args = readArgs("args");
    std::map<std::string, Val> first = readArgs("first");
    if (!first.empty() && !repeated) fail(*row.get("first"), "'first' needs 'repeat'");

    stack.push_back(blockName);
    for (i64 i = 0; i < repeat; ++i) {
        Scope inner;
        inner.block = &def;
        inner.prefix = sc.prefix + name + "." + (repeated ? std::to_string(i) + "." : "");
        inner.instanceName = sc.instanceName ? sc.instanceName : nameV;
        inner.vars["batch"] = batchVal_;
        if (!net_.layers.empty()) {
            YAML::Node in(net_.layers.back().name);
            Val inV{in, row.path() + ".input", whereOf(row.node())};
            inV.hasScope = true;  // a full name
            inner.vars["input"] = inV;
        }
        for (const auto& p : def.params) {
            const Val* v = nullptr;
            if (i == 0) {
                auto f = first.find(p);
                if (f != first.end()) v = &f->second;
            }
            if (!v) {
                auto a = args.find(p);
                if (a != args.end()) v = &a->second;
            }
            if (!v)
                fail(row.node(), join(row.path(), "args." + p),
                     "block '" + blockName + "' needs argument '" + p + "' (parameters: " + listStr(def.params) + ")");
            inner.vars[p] = *v;
        }
        expand(def.layers, inner, stack);
    }
    stack.pop_back();
}

int Loader::resolveRef(const Val& raw, const Scope& sc) const
{
    Val v = resolve(raw, sc);
    std::string ref = str(v);
    const std::string& prefix = v.hasScope ? v.refScope : sc.prefix;
    if (!prefix.empty()) {
        auto it = byName_.find(prefix + ref);
        if (it != byName_.end()) return it->second;
        if (!v.hasScope && sc.block && sc.block->localNames.count(ref))
            fail(v, "'" + ref + "' is defined later in block '" + sc.block->name + "'; a layer can only read earlier layers");
    }
    auto it = byName_.find(ref);
    if (it != byName_.end()) return it->second;
    // Itself, a later row or a block instance: "unknown layer 'add'" read as a typo.
    if (const auto row = topNames_.find(ref); prefix.empty() && row != topNames_.end())
        fail(v, row->second ? "'" + ref + "' is a block instance; read one of its layers by its full name ('" +
                                  ref + ".<layer>')"
                            : "'" + ref + "' is this layer or a later one; a layer can only read earlier layers");
    fail(v, "unknown layer '" + ref + "' (a layer reads earlier layers by name" +
                std::string(prefix.empty() ? "" : "; inside a block, its own layers, $input, or full names") + ")");
}

void Loader::addLayer(const MapView& row, const Scope& sc)
{
    Val nameV = row.need("name");
    const std::string local = name(nameV);
    // Blocks that repeat blocks multiply: 30 nested doublings are 2^29
    // layers, and the loader ran until memory ran out. Named at the
    // outermost block instance, whose repeats made them.
    if (net_.layers.size() >= kMostLayers)
        fail(sc.instanceName ? *sc.instanceName : nameV,
             "more than " + std::to_string(kMostLayers) +
                 " layers once the blocks are expanded (the schedule's problem grows with the square of that: 600 "
                 "take 1 GB to build)");
    Val typeV = row.need("type");
    std::string type = str(typeV);
    const TypeSpec* spec = findType(type);
    if (!spec) {
        std::vector<std::string> known;
        for (const auto& t : typeSpecs()) known.push_back(t.name);
        fail(typeV, "unknown layer type '" + type + "' (known types: " + listStr(known) + ")");
    }
    std::vector<std::string> allowed = {"name", "type"};
    if (spec->arity == 1) allowed.push_back("input");
    if (spec->arity >= 1) allowed.push_back("inputs");
    allowed.insert(allowed.end(), spec->keys.begin(), spec->keys.end());
    row.allowOnly(allowed);

    Layer L;
    L.name = sc.prefix + local;
    L.type = type;
    if (byName_.count(L.name)) {
        if (sc.instanceName)
            fail(*sc.instanceName, "duplicate layer name '" + L.name + "': this block instance makes a layer of a name "
                                   "already taken (give the instance another name)");
        fail(nameV, "duplicate layer name '" + L.name + "'");
    }

    // ---- inputs
    std::optional<Val> inputsGiven;
    if (spec->arity > 0) {
        if (row.has("input") && row.has("inputs")) fail(*row.get("inputs"), "give either 'input' or 'inputs', not both");
        if (auto in = row.get("input")) {
            inputsGiven = *in;
            L.inputs.push_back(resolveRef(*in, sc));
        } else if (auto ins = row.get("inputs")) {
            inputsGiven = *ins;
            if (!ins->node.IsSequence()) fail(*ins, std::string("expected a list of layer names, got ") + kindOf(ins->node));
            if (static_cast<int>(ins->node.size()) != spec->arity)
                fail(*ins, type + " reads " + std::to_string(spec->arity) + " input(s), got " + std::to_string(ins->node.size()));
            for (std::size_t i = 0; i < ins->node.size(); ++i)
                L.inputs.push_back(resolveRef(valOf(ins->node[i], indexed(ins->field, i)), sc));
        } else if (spec->arity == 1) {
            if (net_.layers.empty()) fail(nameV, "the first layer has no previous layer to read; it must be of type input");
            L.inputs.push_back(static_cast<int>(net_.layers.size()) - 1);
        } else {
            fail(row.node(), join(row.path(), "inputs"), type + " needs 'inputs: [first, second]'");
        }
    } else if (!net_.layers.empty()) {
        fail(typeV, "only the first layer may be of type input");
    }
    const Val inputsAt = inputsGiven ? *inputsGiven : valOf(row.node(), join(row.path(), "input"));
    const Shape in = L.inputs.empty() ? Shape{} : net_.layers[L.inputs[0]].out_shape;
    const std::string inName = L.inputs.empty() ? "" : net_.layers[L.inputs[0]].name;
    auto needRank = [&](std::size_t rank, const char* what) {
        if (in.size() != rank)
            fail(inputsAt, type + " needs a " + what + " input; '" + inName + "' has shape " + shapeStr(in));
    };
    auto field = [&](const char* key) { return row.need(key); };
    Val at = valOf(row.node(), row.path());
    i64 flop = 0, params = 0;

    if (type == "input") {
        Val sv = resolve(field("shape"), sc);
        if (!sv.node.IsSequence() || sv.node.size() == 0) fail(sv, "expected a non-empty list of dimensions");
        for (std::size_t i = 0; i < sv.node.size(); ++i) L.out_shape.push_back(positive(valOf(sv.node[i], indexed(sv.field, i)), sc));
        prod(L.out_shape, sv);
    } else if (type == "conv2d") {
        needRank(4, "4-D (batch, channels, height, width)");
        Val icV = resolve(field("in_channels"), sc);
        i64 ic = positive(icV, sc);
        i64 oc = positive(field("out_channels"), sc);
        auto [kh, kw] = pair(field("kernel"), sc, 1);
        i64 stride = row.has("stride") ? positive(*row.get("stride"), sc) : 1;
        auto [ph, pw] = row.has("padding") ? pair(*row.get("padding"), sc, 0) : std::pair<i64, i64>{0, 0};
        if (in[1] != ic)
            fail(icV, "conv2d '" + L.name + "' has in_channels " + std::to_string(ic) + " but its input '" + inName + "' has " +
                          std::to_string(in[1]) + " channels (shape " + shapeStr(in) + ")");
        i64 h = (in[2] - kh + 2 * ph), w = (in[3] - kw + 2 * pw);
        if (h < 0 || w < 0)
            fail(*row.get("kernel"), "kernel larger than the padded input " + shapeStr(in) + " of conv2d '" + L.name + "'");
        L.out_shape = {in[0], oc, h / stride + 1, w / stride + 1};
        // param_count = out * in * prod(kernel) + out; flop = 2*prod(kernel)*prod(input)*out + prod(output)
        params = add(mul(mul(oc, ic, at), mul(kh, kw, at), at), oc, at);
        flop = add(mul(2, mul(mul(mul(kh, kw, at), prod(in, at), at), oc, at), at), prod(L.out_shape, at), at);
    } else if (type == "batchnorm2d") {
        needRank(4, "4-D (batch, channels, height, width)");
        L.out_shape = in;
        params = mul(4, in[1], at);
        flop = mul(2, prod(in, at), at);
    } else if (type == "maxpool2d" || type == "avgpool2d") {
        needRank(4, "4-D (batch, channels, height, width)");
        Val kV = field("kernel");
        auto [kh, kw] = pair(kV, sc, 1);
        i64 stride = row.has("stride") ? positive(*row.get("stride"), sc) : 1;
        if (in[2] < kh || in[3] < kw) fail(kV, "kernel larger than the input " + shapeStr(in) + " of '" + L.name + "'");
        L.out_shape = {in[0], in[1], (in[2] - kh) / stride + 1, (in[3] - kw) / stride + 1};
        // The reference's flop assumes stride 1: 2 * prod(kernel) * prod(output).
        flop = mul(2, mul(mul(kh, kw, at), prod(L.out_shape, at), at), at);
    } else if (type == "global_avgpool") {
        needRank(4, "4-D (batch, channels, height, width)");
        L.out_shape = {in[0], in[1]};
        flop = mul(2, prod(in, at), at);
    } else if (type == "linear" || type == "linear_relu") {
        Val ifV = resolve(field("in_features"), sc);
        i64 inf = positive(ifV, sc);
        i64 outf = positive(field("out_features"), sc);
        if (in.size() != 2)
            fail(ifV, type + " '" + L.name + "' needs a 2-D (batch, features) input; '" + inName + "' has shape " + shapeStr(in));
        if (in[1] != inf)
            fail(ifV, type + " '" + L.name + "' has in_features " + std::to_string(inf) + " but its input '" + inName + "' has " +
                          std::to_string(in[1]) + " features (shape " + shapeStr(in) + ")");
        L.out_shape = {in[0], outf};
        params = mul(add(inf, 1, at), outf, at);
        flop = add(mul(2, params, at), outf, at);  // not scaled by the batch, as in the reference
        if (type == "linear_relu") flop = add(flop, prod(L.out_shape, at), at);
    } else if (type == "flatten") {
        if (in.size() < 2) needRank(2, "2-D or larger");
        i64 rest = 1;
        for (std::size_t i = 1; i < in.size(); ++i) rest = mul(rest, in[i], at);
        L.out_shape = {in[0], rest};
        flop = prod(L.out_shape, at);
    } else if (type == "relu" || type == "dropout" || type == "mask") {
        L.out_shape = in;
        flop = prod(in, at);
    } else if (type == "tanh") {
        L.out_shape = in;
        flop = mul(100, prod(in, at), at);
    } else if (type == "sigmoid") {
        L.out_shape = in;
        flop = mul(4, prod(in, at), at);
    } else if (type == "skip_add") {
        const Shape& in2 = net_.layers[L.inputs[1]].out_shape;
        bool zeroPad = row.has("zero_pad") && boolean(resolve(*row.get("zero_pad"), sc));
        bool ok = in == in2;
        if (!ok && zeroPad) {
            // The paper's option A shortcut: the second input is zero-padded along the channels.
            ok = in.size() == in2.size() && in.size() >= 2 && in2[1] <= in[1];
            for (std::size_t d = 0; ok && d < in.size(); ++d)
                if (d != 1 && in[d] != in2[d]) ok = false;
        }
        if (!ok)
            fail(inputsAt, "skip_add '" + L.name + "' adds '" + inName + "' " + shapeStr(in) + " and '" +
                               net_.layers[L.inputs[1]].name + "' " + shapeStr(in2) + ": the shapes differ" +
                               (zeroPad ? " beyond zero-padding the channels of the second" : " (zero_pad: true allows fewer channels in the second)"));
        L.out_shape = in;
        flop = prod(in, at);
    } else if (type == "cross_entropy") {
        i64 n = positive(field("n_classes"), sc);
        L.out_shape = {n};
        flop = mul(prod(in, at), n, at);
    } else {
        // Attention pieces (poet/power_computation_transformer.py), with the
        // reference's arguments: seq_len, hidden_dim, i, heads.
        Val seqV = resolve(field("seq_len"), sc);
        i64 seq = positive(seqV, sc);
        i64 hid = positive(field("hidden_dim"), sc);
        i64 ii = positive(field("i"), sc);
        i64 heads = positive(field("heads"), sc);
        i64 core = mul(mul(seq, hid, at), mul(ii, heads, at), at);
        auto expect = [&](const Shape& want) {
            if (in != want)
                fail(seqV, type + " '" + L.name + "' expects an input of shape " + shapeStr(want) + " for these arguments; '" +
                               inName + "' has shape " + shapeStr(in));
        };
        if (type == "qkv_matrix") {
            expect({seq, hid});
            L.out_shape = {mul(3, seq, at), ii, heads};
            params = mul(3, mul(mul(hid, ii, at), heads, at), at);
            flop = mul(3, core, at);
        } else if (type == "qkt_matrix") {
            expect({mul(3, seq, at), hid, heads});
            L.out_shape = {seq, ii, heads};
            flop = add(core, mul(2, prod(L.out_shape, at), at), at);  // QK^T + mask + dropout
        } else if (type == "qktv_matrix") {
            expect({seq, hid, heads});
            L.out_shape = {seq, mul(ii, heads, at)};
            flop = mul(2, core, at);  // QK^T V + concat
        } else {  // concat
            if (in.empty() || in[0] != seq)
                fail(seqV, "concat '" + L.name + "' has seq_len " + std::to_string(seq) + " but its input '" + inName +
                               "' has shape " + shapeStr(in));
            L.out_shape = {seq, mul(ii, heads, at)};
            params = mul(mul(hid, ii, at), heads, at);
            flop = core;
        }
    }
    prod(L.out_shape, at);
    L.flop = static_cast<double>(flop);
    L.param_count = static_cast<double>(params);
    byName_[L.name] = static_cast<int>(net_.layers.size());
    net_.layers.push_back(std::move(L));
}

}  // namespace

Network loadNetwork(const std::filesystem::path& file, int batch_size)
{
    Loader loader(file.string());
    Network net = loader.load(batch_size);
    net.name = file.stem().string();
    net.file = file.string();
    return net;
}

}  // namespace poet
