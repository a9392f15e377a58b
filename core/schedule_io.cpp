#include "schedule_io.h"

#include <cmath>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <type_traits>

#include "csv_field.h"

namespace poet {

using nlohmann::json;

namespace {

const char* const kMatrixNames[] = {"R", "S_RAM", "S_SD", "M_in", "M_out"};

const BoolMatrix& matrixOf(const Schedule& s, int which)
{
    switch (which) {
    case 0: return s.R;
    case 1: return s.S_RAM;
    case 2: return s.S_SD;
    case 3: return s.M_in;
    default: return s.M_out;
    }
}

BoolMatrix& matrixOf(Schedule& s, int which)
{
    return const_cast<BoolMatrix&>(matrixOf(static_cast<const Schedule&>(s), which));
}

// Sparse: per stage, the list of nodes set. Small and readable.
json matrixJson(const BoolMatrix& m)
{
    json rows = json::array();
    for (int t = 0; t < m.size(); ++t) {
        json row = json::array();
        for (int i = 0; i < m.size(); ++i)
            if (m(t, i)) row.push_back(i);
        rows.push_back(row);
    }
    return rows;
}

}  // namespace

json resultSummaryJson(const Problem& problem, const SolveResult& r)
{
    const ReplayReport& rep = r.replay;
    const bool has = r.schedule.has_value();
    json j;
    j["model"] = problem.model;
    j["platform"] = problem.platform;
    j["batch_size"] = problem.batch_size;
    j["paging"] = problem.options.paging;
    j["remat"] = problem.options.remat;
    j["status"] = toString(r.status);
    j["source"] = toString(r.source);
    j["ram_budget_bytes"] = problem.ram_budget_bytes;
    j["runtime_budget_factor"] = problem.runtime_budget_factor;
    j["runtime_budget_s"] = problem.runtimeBudgetSeconds();
    j["compute_energy_j"] = has ? json(rep.compute_energy_j) : json();
    j["paging_energy_j"] = has ? json(rep.paging_energy_j) : json();
    j["total_energy_j"] = has ? json(rep.total_energy_j) : json();
    j["runtime_s"] = has ? json(rep.runtime_s) : json();
    j["peak_ram_bytes"] = has ? json(rep.peak_ram_bytes) : json();
    j["recomputations"] = has ? json(rep.recomputations) : json();
    j["free_recomputations"] = has ? json(rep.free_recomputations) : json();
    j["page_ins"] = has ? json(rep.page_ins) : json();
    j["page_outs"] = has ? json(rep.page_outs) : json();
    // Null where there is nothing to say, as for the figures above: a gap
    // of 0 with no schedule read as proven, and -1 s is no time.
    j["best_bound_j"] = r.status == SolveStatus::Infeasible ? json() : json(r.best_bound_j);
    j["gap"] = has ? json(r.gap) : json();
    j["solve_time_s"] = r.solve_time_s;
    j["first_solution_time_s"] = r.first_solution_time_s >= 0 ? json(r.first_solution_time_s) : json();
    j["variables"] = r.variables;
    j["constraints"] = r.constraints;
    j["replay_valid"] = has ? json(rep.valid) : json();  // no schedule, no replay: false meant an internal error
    if (!r.message.empty()) j["message"] = r.message;
    if (r.ram_budget_that_works_bytes > 0) j["ram_budget_that_works_bytes"] = r.ram_budget_that_works_bytes;
    return j;
}

json scheduleDocument(const Problem& problem, const SolveResult& result)
{
    json doc = resultSummaryJson(problem, result);
    doc["format"] = "poet-schedule";
    doc["version"] = 1;
    json nodes = json::array();
    for (const Node& n : problem.graph.nodes()) nodes.push_back(n.name);
    doc["nodes"] = nodes;
    if (result.schedule) {
        json m;
        for (int w = 0; w < 5; ++w) m[kMatrixNames[w]] = matrixJson(matrixOf(*result.schedule, w));
        doc["schedule"] = m;
    }
    return doc;
}

LoadedSchedule readScheduleDocument(const std::filesystem::path& file)
{
    std::error_code ec;
    if (std::filesystem::is_directory(file, ec)) throw std::runtime_error(file.string() + ": is a directory");
    std::ifstream in(file);
    if (!in) throw std::runtime_error(file.string() + ": cannot open");
    json doc;
    try {
        doc = json::parse(in);
    } catch (const json::parse_error& e) {
        // nlohmann's text: "[json.exception.parse_error.101] parse error at
        // line 2, column 1: syntax error while ...": as file:line:column.
        static const std::regex where(R"(at line (\d+), column (\d+): (.*))");
        const std::string text = e.what();
        if (std::smatch m; std::regex_search(text, m, where))
            throw std::runtime_error(file.string() + ":" + m[1].str() + ":" + m[2].str() + ": not valid JSON (" +
                                     m[3].str() + ")");
        throw std::runtime_error(file.string() + ": not valid JSON: " + e.what());
    } catch (const std::ios_base::failure& e) {  // a read error after the open (libstdc++'s text names no file)
        throw std::runtime_error(file.string() + ": cannot read: " + e.what());
    }
    return scheduleFromDocument(doc, file.string());
}

namespace {

// A field's value as T, or an error that names the file, the field, what it
// must be and what it is (nlohmann's own says only "type must be number").
template <class T>
T fieldAs(const json& value, const std::string& file, const std::string& name, const char* kind)
{
    const auto wrong = [&] {
        std::string got = value.dump();
        if (got.size() > 40) got = got.substr(0, 37) + "...";
        return std::runtime_error(file + ": field '" + name + "' must be " + kind + ", got " + got);
    };
    if constexpr (std::is_same_v<T, std::string>) {
        if (!value.is_string()) throw wrong();
    } else if constexpr (std::is_same_v<T, bool>) {
        if (!value.is_boolean()) throw wrong();
    } else if constexpr (std::is_integral_v<T>) {
        if (!value.is_number_integer()) throw wrong();
    } else {
        if (!value.is_number()) throw wrong();
    }
    return value.get<T>();
}

// scheduleFromDocument's fields, each checked for its type.
LoadedSchedule readFields(const json& doc, const std::string& file)
{
    if (!doc.is_object()) throw std::runtime_error(file + ": not a schedule document (a JSON object)");
    auto field = [&](const char* name) -> const json& {
        if (!doc.contains(name)) throw std::runtime_error(file + ": field '" + name + "' is missing");
        return doc.at(name);
    };
    // A top-level field, named once for the lookup and the message.
    auto read = [&]<class T>(T& into, const char* name, const char* kind) {
        into = fieldAs<T>(field(name), file, name, kind);
    };
    // Another program's file, or a later format this build cannot read
    // (absent: read as this one, as the files before these fields were).
    if (doc.contains("format") && doc.at("format") != json("poet-schedule"))
        throw std::runtime_error(file + ": field 'format' must be \"poet-schedule\", got " + doc.at("format").dump());
    if (doc.contains("version") && doc.at("version") != json(1))
        throw std::runtime_error(file + ": field 'version' is " + doc.at("version").dump() +
                                 "; this build reads version 1");
    LoadedSchedule out;
    read(out.model, "model", "a model name");
    read(out.platform, "platform", "a platform name");
    read(out.batch_size, "batch_size", "a whole number");
    read(out.ram_budget_bytes, "ram_budget_bytes", "bytes (a whole number)");
    read(out.runtime_budget_factor, "runtime_budget_factor", "a number");
    read(out.options.paging, "paging", "true or false");
    read(out.options.remat, "remat", "true or false");
    // The problem's own fields, named as such (validate passed a negative
    // budget on as "--ram-budget: must be positive", an option not given).
    auto positive = [&](double value, const char* name) {
        if (!(value > 0) || !std::isfinite(value))
            throw std::runtime_error(file + ": field '" + name + "' must be positive, got " + field(name).dump());
    };
    positive(static_cast<double>(out.ram_budget_bytes), "ram_budget_bytes");
    positive(out.runtime_budget_factor, "runtime_budget_factor");
    positive(out.batch_size, "batch_size");
    auto claim = [&]<class T>(std::optional<T>& into, const char* name, const char* kind) {
        if (doc.contains(name) && !doc.at(name).is_null()) into = fieldAs<T>(doc.at(name), file, name, kind);
    };
    claim(out.claims.total_energy_j, "total_energy_j", "a number");
    claim(out.claims.compute_energy_j, "compute_energy_j", "a number");
    claim(out.claims.paging_energy_j, "paging_energy_j", "a number");
    claim(out.claims.best_bound_j, "best_bound_j", "a number");
    claim(out.claims.status, "status", "a status word");
    claim(out.claims.runtime_s, "runtime_s", "a number");
    claim(out.claims.runtime_budget_s, "runtime_budget_s", "a number");
    claim(out.claims.peak_ram_bytes, "peak_ram_bytes", "bytes (a whole number)");
    claim(out.claims.recomputations, "recomputations", "a whole number");
    claim(out.claims.free_recomputations, "free_recomputations", "a whole number");
    claim(out.claims.page_ins, "page_ins", "a whole number");
    claim(out.claims.page_outs, "page_outs", "a whole number");
    const json& m = field("schedule");
    const json& nodes = field("nodes");
    if (!nodes.is_array()) throw std::runtime_error(file + ": field 'nodes' must be the list of node names");
    if (!m.is_object()) throw std::runtime_error(file + ": field 'schedule' must hold the five matrices");
    const int n = static_cast<int>(nodes.size());
    for (int i = 0; i < n; ++i)
        out.node_names.push_back(fieldAs<std::string>(nodes[i], file, "nodes[" + std::to_string(i) + "]", "a node name"));
    out.schedule = Schedule(n);
    for (int w = 0; w < 5; ++w) {
        const std::string where = std::string("schedule.") + kMatrixNames[w];
        if (!m.contains(kMatrixNames[w])) throw std::runtime_error(file + ": field '" + where + "' is missing");
        const json& rows = m.at(kMatrixNames[w]);
        if (!rows.is_array() || static_cast<int>(rows.size()) != n)
            throw std::runtime_error(file + ": field '" + where + "' must have one row per node of 'nodes' (" +
                                     std::to_string(n) + ")" +
                                     (rows.is_array() ? ", has " + std::to_string(rows.size()) : std::string()));
        for (int t = 0; t < n; ++t) {
            const std::string row = where + "[" + std::to_string(t) + "]";
            if (!rows[t].is_array()) throw std::runtime_error(file + ": field '" + row + "' must be a list of nodes");
            for (const json& i : rows[t]) {
                const int node = fieldAs<int>(i, file, row, "a list of node numbers");
                if (node < 0 || node >= n)
                    throw std::runtime_error(file + ": field '" + row + "' names node " + std::to_string(node) +
                                             ", outside 0.." + std::to_string(n - 1));
                matrixOf(out.schedule, w).set(t, node);
            }
        }
    }
    return out;
}

}  // namespace

LoadedSchedule scheduleFromDocument(const json& doc, const std::string& where_from)
{
    try {
        return readFields(doc, where_from);
    } catch (const json::exception& e) {  // none expected once every field's type is checked
        throw std::runtime_error(where_from + ": " + e.what());
    }
}

std::string scheduleCsv(const Graph& g, const Schedule& s)
{
    std::ostringstream os;
    os << "matrix,stage";
    for (const Node& n : g.nodes()) os << ',' << csvField(n.name);
    os << '\n';
    for (int w = 0; w < 5; ++w) {
        const BoolMatrix& m = matrixOf(s, w);
        for (int t = 0; t < m.size(); ++t) {
            os << kMatrixNames[w] << ',' << t;
            for (int i = 0; i < m.size(); ++i) os << ',' << (m(t, i) ? 1 : 0);
            os << '\n';
        }
    }
    return os.str();
}

}  // namespace poet
