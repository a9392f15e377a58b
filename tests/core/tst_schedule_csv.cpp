// The schedule's CSV (the explorer's and `poet solve --out x.csv`): read
// back by an RFC 4180 reader, it has every node's own name and one field
// per node on every row, whatever the profile named its layers.
#include <QtTest>

#include <string>
#include <vector>

#include "schedule.h"
#include "schedule_io.h"
#include "tiny_graphs.h"

using namespace poet;

namespace {

// An RFC 4180 reader, independent of the writer: quoted fields may hold
// commas, doubled quotes and line breaks.
std::vector<std::vector<std::string>> readCsv(const std::string& text)
{
    std::vector<std::vector<std::string>> rows(1, std::vector<std::string>(1));
    bool quoted = false;
    for (std::size_t k = 0; k < text.size(); ++k) {
        const char c = text[k];
        std::string& field = rows.back().back();
        if (quoted) {
            if (c == '"' && k + 1 < text.size() && text[k + 1] == '"') field += '"', ++k;
            else if (c == '"') quoted = false;
            else field += c;
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            rows.back().emplace_back();
        } else if (c == '\n') {
            rows.emplace_back(1);
        } else {
            field += c;
        }
    }
    if (rows.back() == std::vector<std::string>(1)) rows.pop_back();  // the last line's break
    return rows;
}

}  // namespace

class TestScheduleCsv : public QObject {
    Q_OBJECT
private slots:
    void namesWithCommasQuotesAndBreaksReadBack()
    {
        const std::vector<std::string> names = {"input", "conv,1", "say \"hi\"", "two\nlines"};
        const Graph g(test::unitCostNodes(names, {1, 2, 3, 4}, 0.1, 0.1), {{0, 1}, {1, 2}, {2, 3}});
        const Schedule plain = plainSchedule(g);
        const auto rows = readCsv(scheduleCsv(g, plain));
        // A header, then five matrices of four stages.
        QCOMPARE(rows.size(), std::size_t(1 + 5 * 4));
        std::vector<std::string> header = {"matrix", "stage"};
        header.insert(header.end(), names.begin(), names.end());
        QVERIFY(rows[0] == header);
        for (const auto& row : rows) QCOMPARE(row.size(), header.size());
        // The plain pass computes node t at stage t: R's diagonal.
        QCOMPARE(rows[1][0], std::string("R"));
        QCOMPARE(rows[3][1], std::string("2"));
        QCOMPARE(rows[3][2 + 2], std::string("1"));
        QCOMPARE(rows[3][2 + 1], std::string("0"));
    }
};

QTEST_APPLESS_MAIN(TestScheduleCsv)
#include "tst_schedule_csv.moc"
