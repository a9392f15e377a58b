#pragma once
// A device that trains: compute speed and efficiency, secondary storage
// (flash / SD card) latency and throughput, and memory power.
#include <filesystem>
#include <string>

namespace poet {

struct Platform {
    std::string name;         // profile name (file stem), e.g. "m4"
    std::string description;  // e.g. "nRF52840 (Cortex-M4F)"
    std::string file;
    double flop_per_second = 0;   // reference FLOPS
    double flop_per_joule = 0;    // reference FLOPS_PER_WATT
    double pagein_latency_s = 0;
    double pagein_throughput_bytes_per_s = 0;
    double pageout_latency_s = 0;
    double pageout_throughput_bytes_per_s = 0;
    double memory_power_w = 0;    // power drawn while paging
    int dtype_bytes = 4;          // bytes per tensor element
};

// Loads profiles/platforms/<name>.yaml; throws ProfileError on bad input.
Platform loadPlatform(const std::filesystem::path& file);

}  // namespace poet
