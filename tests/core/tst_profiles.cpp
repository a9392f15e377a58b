// Model and platform profiles: every bundled profile loads; shapes, flop and
// parameter counts match the POET reference (hand-computed values and a golden
// file generated from the reference); bad profiles name file, line, column and
// field; the catalog finds user profiles.
#include "network.h"
#include "platform.h"
#include "profile_catalog.h"
#include "profile_error.h"

#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

using namespace poet;
namespace fs = std::filesystem;
using Shape = std::vector<std::int64_t>;

namespace {

const fs::path kProfiles = POET_PROFILES_DIR;
const fs::path kData = POET_TEST_DATA_DIR;

Network model(const std::string& name, int batch = 0) { return loadNetwork(kProfiles / "models" / (name + ".yaml"), batch); }
Platform platform(const std::string& name) { return loadPlatform(kProfiles / "platforms" / (name + ".yaml")); }

const Layer& byName(const Network& n, const std::string& name)
{
    for (const auto& l : n.layers)
        if (l.name == name) return l;
    throw std::runtime_error("no layer " + name + " in " + n.name);
}

int indexOf(const Network& n, const std::string& name)
{
    for (std::size_t i = 0; i < n.layers.size(); ++i)
        if (n.layers[i].name == name) return static_cast<int>(i);
    return -1;
}

double outputBytes(const Network& n, int dtype = 4)
{
    double s = 0;
    for (const auto& l : n.layers) {
        double p = 1;
        for (auto d : l.out_shape) p *= static_cast<double>(d);
        s += p * dtype;
    }
    return s;
}

void writeFile(const fs::path& p, const std::string& text)
{
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
}

}  // namespace

class TstProfiles : public QObject {
    Q_OBJECT

private slots:
    void bundledModelsLoad_data();
    void bundledModelsLoad();
    void bundledPlatformsLoad();
    void platformConstantsMatchReference();
    void resnet18CifarByHand();
    void vgg16ByHand();
    void resnetImagenetByHand();
    void bertByHand();
    void batchOverride();
    void matchesReferenceGolden();
    void outputBytesTotals();
    void badProfiles_data();
    void badProfiles();
    void missingFile();
    void blockScopes();
    void catalogFindsUserModel();
    void catalogNamesLinksAndFoldersItCannotRead();
    void catalogUnknownNameListsKnown();
    void catalogStandardOrder();
};

void TstProfiles::bundledModelsLoad_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("count");
    // Forward layers incl. input and loss, counted in poet/architectures/*.py.
    QTest::newRow("linear") << "linear" << 14;
    QTest::newRow("vgg16") << "vgg16" << 41;
    QTest::newRow("vgg16_cifar") << "vgg16_cifar" << 41;
    QTest::newRow("resnet18") << "resnet18" << 64;
    QTest::newRow("resnet18_cifar") << "resnet18_cifar" << 67;  // T = 2*67-1 = 133 with gradients
    QTest::newRow("resnet50") << "resnet50" << 168;
    QTest::newRow("bert") << "bert" << 98;
    QTest::newRow("transformer") << "transformer" << 10;
}

void TstProfiles::bundledModelsLoad()
{
    QFETCH(QString, name);
    QFETCH(int, count);
    Network n = model(name.toStdString());
    QCOMPARE(n.name, name.toStdString());
    QVERIFY(!n.description.empty());
    QCOMPARE(n.batch_size, 1);
    QCOMPARE(static_cast<int>(n.layers.size()), count);
    QCOMPARE(n.layers.front().type, std::string("input"));
    QCOMPARE(n.layers.back().type, std::string("cross_entropy"));
    std::set<std::string> names;
    for (std::size_t i = 0; i < n.layers.size(); ++i) {
        const Layer& l = n.layers[i];
        QVERIFY2(names.insert(l.name).second, l.name.c_str());
        QVERIFY(!l.out_shape.empty());
        QVERIFY(l.flop >= 0);
        for (int in : l.inputs) QVERIFY(in >= 0 && in < static_cast<int>(i));
        if (i > 0) QVERIFY(!l.inputs.empty());
    }
    // The catalog of the bundled directory lists it.
    ProfileCatalog cat({kProfiles});
    QCOMPARE(cat.modelFile(name.toStdString()), kProfiles / "models" / (name.toStdString() + ".yaml"));
}

void TstProfiles::bundledPlatformsLoad()
{
    ProfileCatalog cat({kProfiles});
    std::vector<std::string> names;
    for (const auto& e : cat.platforms()) names.push_back(e.name);
    QCOMPARE(names, (std::vector<std::string>{"a72", "a72nocache", "jetsontx2", "m0", "m4"}));
    for (const auto& e : cat.platforms()) {
        Platform p = loadPlatform(e.file);
        QCOMPARE(p.name, e.name);
        QVERIFY(!p.description.empty());
        QVERIFY(p.flop_per_second > 0 && p.flop_per_joule > 0);
        QVERIFY(p.pagein_throughput_bytes_per_s > 0 && p.pageout_throughput_bytes_per_s > 0);
        QCOMPARE(p.dtype_bytes, 4);
    }
    std::vector<std::string> models;
    for (const auto& e : cat.models()) models.push_back(e.name);
    QCOMPARE(models, (std::vector<std::string>{"bert", "linear", "resnet18", "resnet18_cifar", "resnet50", "transformer",
                                               "vgg16", "vgg16_cifar"}));
}

void TstProfiles::platformConstantsMatchReference()
{
    // The reference's Python expressions (poet/chipsets.py) evaluated in C++
    // doubles: the same IEEE operations, so the same values, bit for bit.
    const double e3 = std::pow(10.0, -3);  // Python's 10 ** (-3)
    Platform m0 = platform("m0");
    QCOMPARE(m0.flop_per_joule, 2000 / (0.012 * 0.020 * 3.3));
    QCOMPARE(m0.flop_per_second, 2000 / 0.012);
    QCOMPARE(m0.pagein_latency_s, 0.109 * e3);
    QCOMPARE(m0.pagein_throughput_bytes_per_s, 4616.51 * 1000);
    QCOMPARE(m0.pageout_latency_s, 0.113 * e3);
    QCOMPARE(m0.pageout_throughput_bytes_per_s, 4440.0 * 1000);
    QCOMPARE(m0.memory_power_w, 100 * e3 * 3.3);
    QCOMPARE(m0.dtype_bytes, 4);

    Platform m4 = platform("m4");
    QCOMPARE(m4.flop_per_joule, (16283.0 * 100 * 1000) / (255.6237 * 0.003328 * 3.3));
    QCOMPARE(m4.flop_per_second, (16283.0 * 100 * 1000) / (255.6237));
    QCOMPARE(m4.pagein_latency_s, 0.109 * e3);
    QCOMPARE(m4.pagein_throughput_bytes_per_s, 4616.51 * 1000);
    QCOMPARE(m4.pageout_latency_s, 0.113 * e3);
    QCOMPARE(m4.pageout_throughput_bytes_per_s, 4440.0 * 1000);
    QCOMPARE(m4.memory_power_w, 100 * e3 * 3.3);

    const double e6 = 1000000;  // Python's 10 ** (6), an int
    Platform a72 = platform("a72");
    QCOMPARE(a72.flop_per_joule, (16283.0 * 100 * 1000) / (13.53 * 0.6 * 5));
    QCOMPARE(a72.flop_per_second, 2.0 * 1000 * 1000 * 1000);
    QCOMPARE(a72.pagein_latency_s, 0.00509561 * e3);
    QCOMPARE(a72.pagein_throughput_bytes_per_s, 45.5 * e6);
    QCOMPARE(a72.pageout_latency_s, 0.0185314 * e3);
    QCOMPARE(a72.pageout_throughput_bytes_per_s, 24.5 * e6);
    QCOMPARE(a72.memory_power_w, 30 * e3 * 5);

    Platform nc = platform("a72nocache");
    QCOMPARE(nc.flop_per_joule, (16283.0 * 100 * 1000) / (13.53 * 0.6 * 5));
    QCOMPARE(nc.flop_per_second, (16283.0 * 100 * 1000) / (13.53));
    QCOMPARE(nc.pagein_latency_s, 0.00509561 * e3);
    QCOMPARE(nc.pagein_throughput_bytes_per_s, 45.5 * e6);
    QCOMPARE(nc.pageout_latency_s, 4.23532 * e3);
    QCOMPARE(nc.pageout_throughput_bytes_per_s, 17.1 * e6);
    QCOMPARE(nc.memory_power_w, 30 * e3 * 5);

    Platform tx2 = platform("jetsontx2");
    QCOMPARE(tx2.pagein_latency_s, 0.00054);
    QCOMPARE(tx2.pageout_latency_s, 0.002396);
    QCOMPARE(tx2.pagein_throughput_bytes_per_s, 108.5 * e6);
    QCOMPARE(tx2.pageout_throughput_bytes_per_s, 94.37 * e6);
    QCOMPARE(tx2.memory_power_w, 309 * e3);
    QCOMPARE(tx2.flop_per_second, 2.0e9);                      // our estimate, see the profile
    QCOMPARE(tx2.flop_per_joule, 2.0e9 / ((995 - 229) * e3));  // = FLOPS / POWER
}

void TstProfiles::resnet18CifarByHand()
{
    Network n = model("resnet18_cifar");
    QCOMPARE(n.layers[0].out_shape, (Shape{1, 3, 32, 32}));
    QCOMPARE(n.layers[0].flop, 0.0);
    const Layer& c1 = n.layers[1];
    QCOMPARE(c1.name, std::string("conv1"));
    QCOMPARE(c1.type, std::string("conv2d"));
    QCOMPARE(c1.out_shape, (Shape{1, 16, 32, 32}));
    QCOMPARE(c1.flop, 2.0 * 9 * 3072 * 16 + 16384);  // 901120
    QCOMPARE(c1.flop, 901120.0);
    QCOMPARE(c1.param_count, 16.0 * 3 * 9 + 16);
    QCOMPARE(c1.inputs, (std::vector<int>{0}));
    const Layer& bn1 = n.layers[2];
    QCOMPARE(bn1.param_count, 64.0);
    QCOMPARE(bn1.flop, 2.0 * 16384);
    // First block of stage 2: stride 2, (32 - 3 + 2) // 2 + 1 = 16.
    const Layer& l2c1 = byName(n, "layer2.0.conv1");
    QCOMPARE(l2c1.out_shape, (Shape{1, 32, 16, 16}));
    QCOMPARE(l2c1.flop, 2.0 * 9 * 16384 * 32 + 8192);
    QCOMPARE(l2c1.param_count, 32.0 * 16 * 9 + 32);
    // The shortcut convolution reads the block input; the add reads [relu2, bn3].
    QCOMPARE(byName(n, "layer1.0.conv3").inputs, (std::vector<int>{2}));  // the stem's bn1, not layer1.0.bn1
    QCOMPARE(byName(n, "layer2.0.conv3").inputs, (std::vector<int>{indexOf(n, "layer1.1.relu3")}));
    QCOMPARE(byName(n, "layer2.0.add").inputs,
             (std::vector<int>{indexOf(n, "layer2.0.relu2"), indexOf(n, "layer2.0.bn3")}));
    QCOMPARE(byName(n, "layer3.1.relu3").out_shape, (Shape{1, 64, 8, 8}));
    const Layer& pool = byName(n, "avgpool");
    QCOMPARE(pool.out_shape, (Shape{1, 64, 1, 1}));
    QCOMPARE(pool.flop, 2.0 * 64 * 64);  // 2 * prod(kernel) * prod(out)
    QCOMPARE(byName(n, "flatten").out_shape, (Shape{1, 64}));
    const Layer& fc = byName(n, "fc");
    QCOMPARE(fc.param_count, 65.0 * 10);
    QCOMPARE(fc.flop, 2.0 * 650 + 10);
    const Layer& loss = n.layers.back();
    QCOMPARE(loss.out_shape, (Shape{10}));
    QCOMPARE(loss.flop, 10.0 * 10);
}

void TstProfiles::vgg16ByHand()
{
    Network n = model("vgg16");
    QCOMPARE(byName(n, "stage1.0.conv").out_shape, (Shape{1, 64, 224, 224}));
    QCOMPARE(byName(n, "stage1.0.conv").flop, 2.0 * 9 * (3 * 224 * 224) * 64 + 64.0 * 224 * 224);
    const Layer& p1 = byName(n, "pool1");
    QCOMPARE(p1.out_shape, (Shape{1, 64, 112, 112}));
    QCOMPARE(p1.flop, 2.0 * 4 * (64 * 112 * 112));
    QCOMPARE(byName(n, "flatten").out_shape, (Shape{1, 25088}));  // 512 * 224/32 * 224/32
    const Layer& fc1 = byName(n, "fc1");
    QCOMPARE(fc1.param_count, 25089.0 * 4096);
    QCOMPARE(fc1.flop, 2.0 * 25089 * 4096 + 4096);
    QCOMPARE(n.layers.back().out_shape, (Shape{1000}));
    QCOMPARE(n.layers.back().flop, 1000.0 * 1000);

    Network c = model("vgg16_cifar");
    QCOMPARE(byName(c, "pool5").out_shape, (Shape{1, 512, 1, 1}));
    QCOMPARE(byName(c, "fc1").param_count, 513.0 * 4096);
    QCOMPARE(c.layers.back().out_shape, (Shape{10}));
}

void TstProfiles::resnetImagenetByHand()
{
    Network r18 = model("resnet18");
    QCOMPARE(byName(r18, "conv1").out_shape, (Shape{1, 64, 112, 112}));  // (224 - 7 + 6) // 2 + 1
    QCOMPARE(byName(r18, "maxpool").out_shape, (Shape{1, 64, 55, 55}));  // (112 - 3) // 2 + 1
    QCOMPARE(byName(r18, "maxpool").flop, 2.0 * 9 * (64 * 55 * 55));
    QCOMPARE(byName(r18, "layer2.0.conv1").out_shape, (Shape{1, 128, 28, 28}));  // (55 - 3 + 2) // 2 + 1
    QCOMPARE(byName(r18, "layer1.0.add").inputs,
             (std::vector<int>{indexOf(r18, "layer1.0.relu1"), indexOf(r18, "layer1.0.bn2")}));

    Network r50 = model("resnet50");
    const Layer& add = byName(r50, "layer1.0.add");
    QCOMPARE(add.inputs, (std::vector<int>{indexOf(r50, "layer1.0.bn3"), indexOf(r50, "layer1.0.relu1")}));
    QCOMPARE(add.out_shape, (Shape{1, 256, 55, 55}));  // the shapes of bn3; relu1 has 64 channels
    QCOMPARE(r50.layers[add.inputs[1]].out_shape, (Shape{1, 64, 55, 55}));
    QCOMPARE(byName(r50, "layer2.0.conv1").out_shape, (Shape{1, 128, 28, 28}));  // (55 - 1) // 2 + 1
    QCOMPARE(byName(r50, "layer4.2.relu3").out_shape, (Shape{1, 2048, 7, 7}));
    QCOMPARE(byName(r50, "fc").param_count, 2049.0 * 1000);
}

void TstProfiles::bertByHand()
{
    Network n = model("bert");
    QCOMPARE(n.layers[0].out_shape, (Shape{512, 768}));
    const Layer& qkv = byName(n, "encoder.0.qkv");
    QCOMPARE(qkv.out_shape, (Shape{1536, 64, 12}));
    QCOMPARE(qkv.flop, 3.0 * 512 * 768 * 64 * 12);
    QCOMPARE(qkv.param_count, 3.0 * 768 * 64 * 12);
    const Layer& qkt = byName(n, "encoder.0.qkt");
    QCOMPARE(qkt.out_shape, (Shape{512, 512, 12}));
    QCOMPARE(qkt.flop, 512.0 * 64 * 512 * 12 + 2.0 * 512 * 512 * 12);
    const Layer& qktv = byName(n, "encoder.0.qktv");
    QCOMPARE(qktv.out_shape, (Shape{512, 768}));
    QCOMPARE(qktv.flop, 2.0 * 512 * 512 * 64 * 12);
    const Layer& ffn1 = byName(n, "encoder.0.ffn1");
    QCOMPARE(ffn1.out_shape, (Shape{512, 3072}));
    QCOMPARE(ffn1.flop, 2.0 * 769 * 3072 + 3072 + 512.0 * 3072);
    QCOMPARE(byName(n, "encoder.0.add1").inputs, (std::vector<int>{0, indexOf(n, "encoder.0.proj")}));
    QCOMPARE(byName(n, "encoder.1.add1").inputs,
             (std::vector<int>{indexOf(n, "encoder.0.add2"), indexOf(n, "encoder.1.proj")}));
    // The reference's layers[-4]: the projection, not the first residual.
    QCOMPARE(byName(n, "encoder.0.add2").inputs,
             (std::vector<int>{indexOf(n, "encoder.0.proj"), indexOf(n, "encoder.0.ffn2")}));
    QCOMPARE(n.layers.back().out_shape, (Shape{512}));
    QCOMPARE(n.layers.back().flop, 512.0 * 768 * 512);
    QCOMPARE(model("transformer").layers.size(), std::size_t(10));
}

void TstProfiles::batchOverride()
{
    Network n = model("resnet18_cifar", 4);
    QCOMPARE(n.batch_size, 4);
    QCOMPARE(n.layers[0].out_shape, (Shape{4, 3, 32, 32}));
    QCOMPARE(n.layers[1].out_shape, (Shape{4, 16, 32, 32}));
    QCOMPARE(n.layers[1].flop, 2.0 * 9 * (4 * 3072) * 16 + 4 * 16384);
    QCOMPARE(byName(n, "fc").out_shape, (Shape{4, 10}));
    QCOMPARE(byName(n, "fc").flop, 2.0 * 650 + 10);  // the reference's linear flop ignores the batch
    QCOMPARE(n.layers.back().out_shape, (Shape{10}));
    QCOMPARE(n.layers.back().flop, 4.0 * 10 * 10);
    QCOMPARE(model("resnet18_cifar", 0).batch_size, 1);  // <= 0 keeps the profile's default
    QCOMPARE(model("linear", 3).layers[0].out_shape, (Shape{3, 784}));
    // BERT's input has no batch dimension (as in the reference).
    QCOMPARE(model("transformer", 8).layers[0].out_shape, (Shape{512, 768}));
}

void TstProfiles::matchesReferenceGolden()
{
    // Generated by running the reference's architecture functions (see "about").
    std::ifstream f(kData / "reference_forward_layers.json");
    QVERIFY(f.good());
    nlohmann::json golden = nlohmann::json::parse(f);
    const std::map<std::string, std::string> typeOf = {
        {"InputLayer", "input"}, {"Conv2dLayer", "conv2d"}, {"BatchNorm2d", "batchnorm2d"}, {"ReLULayer", "relu"},
        {"MaxPool2d", "maxpool2d"}, {"AvgPool2d", "avgpool2d"}, {"GlobalAvgPool", "global_avgpool"},
        {"LinearLayer", "linear"}, {"FlattenLayer", "flatten"}, {"DropoutLayer", "dropout"},
        {"SkipAddLayer", "skip_add"}, {"TanHLayer", "tanh"}, {"SigmoidLayer", "sigmoid"},
        {"CrossEntropyLoss", "cross_entropy"}, {"QueryKeyValueMatrix", "qkv_matrix"}, {"QKTMatrix", "qkt_matrix"},
        {"Mask", "mask"}, {"QKTVMatrix", "qktv_matrix"}, {"Concat", "concat"}, {"LinearLayerReLU", "linear_relu"}};
    int checked = 0;
    for (const auto& [key, layers] : golden["models"].items()) {
        auto at = key.find('@');
        std::string name = key.substr(0, at);
        int batch = std::stoi(key.substr(at + 1));
        Network n = model(name, batch);
        QCOMPARE(n.layers.size(), layers.size());
        for (std::size_t i = 0; i < layers.size(); ++i) {
            const auto& g = layers[i];
            const Layer& l = n.layers[i];
            const std::string ctx = key + " layer " + std::to_string(i) + " " + l.name;
            QVERIFY2(typeOf.at(g[0].get<std::string>()) == l.type, ctx.c_str());
            QVERIFY2(g[1].get<Shape>() == l.out_shape, ctx.c_str());
            QVERIFY2(g[2].get<double>() == l.flop, ctx.c_str());
            QVERIFY2(g[3].get<double>() == l.param_count, ctx.c_str());
            QVERIFY2(g[4].get<std::vector<int>>() == l.inputs, ctx.c_str());
            ++checked;
        }
    }
    QCOMPARE(checked, 625);
}

void TstProfiles::outputBytesTotals()
{
    // Sum over the forward layers of prod(out_shape) * 4 bytes, batch 1.
    QCOMPARE(outputBytes(model("resnet18_cifar")), 2437712.0);
    QCOMPARE(outputBytes(model("vgg16_cifar")), 2449488.0);
}

void TstProfiles::badProfiles_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("isPlatform");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("message");
    auto row = [](const char* f, bool plat, int line, int col, const char* field, const char* msg) {
        QTest::newRow(f) << QString(f) << plat << line << col << QString(field) << QString(msg);
    };
    row("syntax_error.yaml", false, 4, 3, "", "YAML syntax error");
    row("empty.yaml", false, 1, 1, "", "the profile is empty");
    // yaml-cpp's words do not say it is the tab.
    row("tab_indent.yaml", false, 4, 2, "",
        "YAML syntax error: illegal block entry (line 4 is indented with a tab; YAML indents with spaces only)");
    row("unterminated_quote.yaml", false, 2, 14, "description", "unterminated quote");
    row("unknown_type.yaml", false, 4, 24, "layers[1].type", "unknown layer type 'conv3d'");
    row("conv_channels.yaml", false, 6, 18, "layers[1].in_channels", "in_channels 4 but its input 'input' has 3 channels");
    row("linear_features.yaml", false, 5, 43, "layers[2].in_features", "in_features 100 but its input 'flatten' has 192");
    row("skip_shapes.yaml", false, 5, 41, "layers[2].inputs", "the shapes differ");
    row("unknown_reference.yaml", false, 5, 37, "layers[2].input", "unknown layer 'inptu'");
    row("forward_reference.yaml", false, 4, 73, "layers[1].input",
        "'fc2' is this layer or a later one; a layer can only read earlier layers");
    row("block_instance_reference.yaml", false, 10, 73, "layers[2].input",
        "'stage' is a block instance; read one of its layers by its full name ('stage.<layer>')");
    row("unknown_block.yaml", false, 9, 26, "layers[1].block", "unknown block 'bottlenek' (defined blocks: bottleneck)");
    row("unknown_key.yaml", false, 4, 35, "layers[1].kernal", "unknown key 'kernal'");
    row("wrong_type.yaml", false, 4, 61, "layers[1].out_features", "expected an integer");
    row("negative_stride.yaml", false, 4, 84, "layers[1].stride", "must be positive");
    row("zero_batch.yaml", false, 2, 13, "batch_size", "must be positive");
    row("duplicate_name.yaml", false, 5, 12, "layers[2].name", "duplicate layer name 'fc'");
    row("grad_name.yaml", false, 4, 12, "layers[1].name", "names starting with \"grad \" are the backward pass's");
    row("control_name.yaml", false, 4, 12, "layers[1].name", "may not contain control characters");
    row("separator_name.yaml", false, 4, 12, "layers[1].name", "may not contain control characters");
    // Both used to run until memory ran out.
    row("alias_bomb.yaml", false, 3, 1, "x0", "unknown key 'x0'");
    row("doubling_blocks.yaml", false, 126, 12, "layers[1].name",
        "more than 600 layers once the blocks are expanded");
    // At the instance that makes it again, not the block's row (line 6).
    row("duplicate_instance.yaml", false, 10, 12, "layers[2].name",
        "duplicate layer name 'stage.conv': this block instance makes a layer of a name already taken");
    row("block_arg_mismatch.yaml", false, 9, 62, "layers[1].args.in_planes", "'stage.1.conv' has in_channels 4");
    row("block_missing_arg.yaml", false, 9, 5, "layers[1].args.planes", "needs argument 'planes'");
    row("unknown_variable.yaml", false, 6, 65, "blocks.fcs.layers[0].out_features", "unknown variable '$width'");
    row("block_forward_reference.yaml", false, 5, 38, "blocks.pair.layers[0].input", "defined later in block 'pair'");
    row("no_loss.yaml", false, 3, 3, "layers", "the last layer must be the loss");
    row("platform_missing_constant.yaml", true, 2, 1, "flop_per_joule", "missing required constant");
    row("platform_negative.yaml", true, 6, 32, "pagein_throughput_bytes_per_s", "must be positive");
    row("platform_zero_rate.yaml", true, 3, 18, "flop_per_second", "must be positive");
    row("platform_huge_latency.yaml", true, 5, 19, "pagein_latency_s", "must be between 0 and 1000, got 1e17");
    row("platform_huge_efficiency.yaml", true, 4, 17, "flop_per_joule", "must be between 1 and 1e15, got 1e20");
    row("platform_wrong_type.yaml", true, 3, 18, "flop_per_second", "expected a number");
    row("platform_overflow.yaml", true, 3, 18, "flop_per_second", "'1e400' is beyond what a number here can hold");
    row("platform_quoted_number.yaml", true, 9, 17, "memory_power_w",
        "expected a number, got a quoted string '0.33 W' (write the number alone, unquoted)");
    row("platform_unknown_key.yaml", true, 11, 1, "FLOPS", "unknown key 'FLOPS'");
    row("platform_syntax_error.yaml", true, 4, 17, "", "YAML syntax error");
    row("platform_empty.yaml", true, 1, 1, "", "the profile is empty");
    row("platform_unterminated_quote.yaml", true, 2, 14, "description", "unterminated quote");
    // Text that is not UTF-8 is refused where it is: a Latin-1 name loaded,
    // and the schedule's JSON failed after the solve (exit 1); a binary file
    // read as "unknown escape character: ".
    row("latin1_name.yaml", false, 4, 13, "", "not UTF-8 text (byte 0xFC; save the file as UTF-8)");
    row("binary_file.yaml", false, 1, 8, "", "not UTF-8 text (byte 0x00; a binary file?)");
    row("platform_overlong_utf8.yaml", true, 2, 16, "", "not UTF-8 text (byte 0xC0");
}

void TstProfiles::badProfiles()
{
    QFETCH(QString, file);
    QFETCH(bool, isPlatform);
    QFETCH(int, line);
    QFETCH(int, column);
    QFETCH(QString, field);
    QFETCH(QString, message);
    const fs::path path = kData / "bad_profiles" / file.toStdString();
    QVERIFY(fs::exists(path));
    try {
        if (isPlatform)
            loadPlatform(path);
        else
            loadNetwork(path);
        QFAIL("no ProfileError");
    } catch (const ProfileError& e) {
        const QString what = QString::fromStdString(e.what());
        QCOMPARE(e.file(), path.string());
        QCOMPARE(e.line(), line);
        QCOMPARE(e.column(), column);
        QCOMPARE(QString::fromStdString(e.field()), field);
        QVERIFY2(what.contains(message), qPrintable(what));
        // what() starts with file:line:column.
        QVERIFY2(what.startsWith(QString::fromStdString(path.string()) + QString(":%1:%2: ").arg(line).arg(column)),
                 qPrintable(what));
    }
}

void TstProfiles::missingFile()
{
    try {
        loadNetwork(kData / "bad_profiles" / "does_not_exist.yaml");
        QFAIL("no ProfileError");
    } catch (const ProfileError& e) {
        QCOMPARE(e.line(), 0);
        QVERIFY(QString(e.what()).contains("cannot open"));
    }
    QVERIFY_THROWS_EXCEPTION(ProfileError, loadPlatform(kData / "bad_profiles" / "does_not_exist.yaml"));
}

void TstProfiles::blockScopes()
{
    // Inside a block a name means the copy's own layer first; a name passed as
    // an argument means what it meant where it was written; $input is the layer
    // before the copy; blocks nest.
    QTemporaryDir tmp;
    const fs::path file = fs::path(tmp.path().toStdString()) / "scopes.yaml";
    writeFile(file, R"(
blocks:
  inner:
    params: [n]
    layers:
      - {name: fc, type: linear, in_features: $n, out_features: $n}
  outer:
    params: [n, other]
    layers:
      - {name: fc, type: linear, in_features: $n, out_features: $n}
      - {name: sub, block: inner, args: {n: $n}}
      - {name: add, type: skip_add, inputs: [fc, $other]}
      - {name: add2, type: skip_add, inputs: [sub.fc, $input]}
layers:
  - {name: input, type: input, shape: [$batch, 6]}
  - {name: fc, type: linear, in_features: 6, out_features: 6}
  - {name: b, block: outer, repeat: 2, args: {n: 6, other: fc}}
  - {name: loss, type: cross_entropy, n_classes: 6}
)");
    Network n = loadNetwork(file);
    std::vector<std::string> names;
    for (const auto& l : n.layers) names.push_back(l.name);
    QCOMPARE(names, (std::vector<std::string>{"input", "fc", "b.0.fc", "b.0.sub.fc", "b.0.add", "b.0.add2", "b.1.fc",
                                              "b.1.sub.fc", "b.1.add", "b.1.add2", "loss"}));
    QCOMPARE(byName(n, "b.0.add").inputs, (std::vector<int>{2, 1}));
    QCOMPARE(byName(n, "b.0.add2").inputs, (std::vector<int>{3, 1}));
    QCOMPARE(byName(n, "b.1.add").inputs, (std::vector<int>{6, 1}));
    QCOMPARE(byName(n, "b.1.add2").inputs, (std::vector<int>{7, 5}));
    QCOMPARE(byName(n, "b.1.fc").inputs, (std::vector<int>{5}));
}

void TstProfiles::catalogFindsUserModel()
{
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const fs::path root = tmp.path().toStdString();
    writeFile(root / "models" / "tiny.yaml", R"(# a user's model
description: "two linear layers"
batch_size: 2
layers:
  - {name: input, type: input, shape: [$batch, 8]}
  - {name: fc1, type: linear, in_features: 8, out_features: 4}
  - {name: act, type: sigmoid}
  - {name: fc2, type: linear, in_features: 4, out_features: 3}
  - {name: loss, type: cross_entropy, n_classes: 3}
)");
    // A user's linear.yaml shadows the bundled one.
    writeFile(root / "models" / "linear.yaml", "layers: []\n");
    writeFile(root / "platforms" / "myboard.yaml", R"(description: "my board"
source: "measured"
flop_per_second: 1e6
flop_per_joule: 2.5e7
pagein_latency_s: 0
pagein_throughput_bytes_per_s: 1e6
pageout_latency_s: 0.001
pageout_throughput_bytes_per_s: 5e5
memory_power_w: 0.1
dtype_bytes: 2
)");
    ProfileCatalog cat({root, kProfiles});
    QCOMPARE(cat.models().size(), std::size_t(9));
    QCOMPARE(cat.platforms().size(), std::size_t(6));
    QCOMPARE(cat.modelFile("tiny"), root / "models" / "tiny.yaml");
    QCOMPARE(cat.modelFile("linear"), root / "models" / "linear.yaml");
    QCOMPARE(cat.modelFile("vgg16"), kProfiles / "models" / "vgg16.yaml");
    QCOMPARE(cat.platformFile("myboard"), root / "platforms" / "myboard.yaml");

    Network n = loadNetwork(cat.modelFile("tiny"));
    QCOMPARE(n.name, std::string("tiny"));
    QCOMPARE(n.batch_size, 2);
    QCOMPARE(n.layers.size(), std::size_t(5));
    QCOMPARE(n.layers[2].out_shape, (Shape{2, 4}));
    QCOMPARE(n.layers[2].flop, 4.0 * 8);
    QCOMPARE(n.layers[3].param_count, 15.0);
    Platform p = loadPlatform(cat.platformFile("myboard"));
    QCOMPARE(p.flop_per_joule, 2.5e7);
    QCOMPARE(p.dtype_bytes, 2);
    QCOMPARE(p.pagein_latency_s, 0.0);
}

// A dangling link or a folder of a profile's name is a broken profile that
// hides the bundled one, and says what it is: both were passed over without
// a word, and the bundled vgg16 used where the user's link was meant.
void TstProfiles::catalogNamesLinksAndFoldersItCannotRead()
{
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const fs::path root = tmp.path().toStdString();
    fs::create_directories(root / "models" / "mine.yaml");
    fs::create_directories(root / "models" / ".hidden.yaml");  // hidden: not a profile, as everywhere
    fs::create_symlink("/nonexistent/vgg16.yaml", root / "models" / "vgg16.yaml");
    ProfileCatalog cat({root, kProfiles});
    QCOMPARE(cat.modelFile("vgg16"), root / "models" / "vgg16.yaml");
    QCOMPARE(cat.modelFile("mine"), root / "models" / "mine.yaml");
    for (const ProfileEntry& e : cat.models()) QVERIFY2(e.name != ".hidden", e.file.c_str());
    const auto whyBroken = [](const fs::path& file) {
        try {
            loadNetwork(file);
        } catch (const ProfileError& e) {
            return std::string(e.what());
        }
        return std::string("loaded");
    };
    QCOMPARE(whyBroken(root / "models" / "mine.yaml"),
             (root / "models" / "mine.yaml").string() + ": is a folder, not a profile file");
    QCOMPARE(whyBroken(root / "models" / "vgg16.yaml"), (root / "models" / "vgg16.yaml").string() +
                                                            ": a link to /nonexistent/vgg16.yaml, which does not exist");
    // A FIFO is not read: `poet list` waited for a writer for good.
    QCOMPARE(::mkfifo((root / "models" / "pipe.yaml").c_str(), 0600), 0);
    QCOMPARE(whyBroken(root / "models" / "pipe.yaml"),
             (root / "models" / "pipe.yaml").string() + ": is a FIFO, socket or device, not a profile file");
}

void TstProfiles::catalogUnknownNameListsKnown()
{
    ProfileCatalog cat({kProfiles});
    try {
        cat.modelFile("resnet19");
        QFAIL("no exception");
    } catch (const std::invalid_argument& e) {
        const QString what = e.what();
        QVERIFY2(what.contains("resnet19"), qPrintable(what));
        for (const char* known : {"bert", "linear", "resnet18", "resnet18_cifar", "resnet50", "transformer", "vgg16", "vgg16_cifar"})
            QVERIFY2(what.contains(known), qPrintable(what));
    }
    try {
        cat.platformFile("m7");
        QFAIL("no exception");
    } catch (const std::invalid_argument& e) {
        const QString what = e.what();
        for (const char* known : {"a72", "a72nocache", "jetsontx2", "m0", "m4"}) QVERIFY2(what.contains(known), qPrintable(what));
    }
}

void TstProfiles::catalogStandardOrder()
{
    QTemporaryDir a, b;
    const QByteArray saved = qgetenv("POET_PROFILES");
    const bool had = qEnvironmentVariableIsSet("POET_PROFILES");
    qputenv("POET_PROFILES", (a.path() + ":" + b.path()).toUtf8());
    ProfileCatalog cat = ProfileCatalog::standard();
    if (had)
        qputenv("POET_PROFILES", saved);
    else
        qunsetenv("POET_PROFILES");
    QVERIFY(cat.roots().size() >= 3);
    QCOMPARE(cat.roots()[0], fs::path(a.path().toStdString()));
    QCOMPARE(cat.roots()[1], fs::path(b.path().toStdString()));
    QCOMPARE(fs::weakly_canonical(cat.roots().back()), fs::weakly_canonical(kProfiles));
    // The bundled profiles are found through it.
    QCOMPARE(fs::weakly_canonical(cat.modelFile("resnet18_cifar")), fs::weakly_canonical(kProfiles / "models" / "resnet18_cifar.yaml"));
}

QTEST_APPLESS_MAIN(TstProfiles)
#include "tst_profiles.moc"
