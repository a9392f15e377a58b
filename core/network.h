#pragma once
// A network as listed in a model profile: forward layers in their listed
// (topological) order, from the input layer to the loss, with the shapes,
// flop counts and parameter counts of the POET reference's layer vocabulary.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace poet {

struct Layer {
    std::string name;                 // unique within the network, e.g. "block2.conv1"
    std::string type;                 // vocabulary name, e.g. "conv2d", "relu", "cross_entropy"
    std::vector<std::int64_t> out_shape;  // including the batch dimension where the reference has one
    double flop = 0;                  // floating-point operations to compute the output once
    double param_count = 0;           // trainable parameters
    std::vector<int> inputs;          // indices of earlier layers this one reads, in order
};

struct Network {
    std::string name;         // profile name (file stem)
    std::string description;
    std::string file;         // the YAML it came from
    int batch_size = 1;
    std::vector<Layer> layers;  // forward layers, input first, loss last
};

// Loads profiles/models/<name>.yaml. batch_size <= 0 keeps the profile's default.
// Throws ProfileError naming file, line, column and field on any bad input.
Network loadNetwork(const std::filesystem::path& file, int batch_size = 0);

}  // namespace poet
