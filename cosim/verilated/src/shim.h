#pragma once
#include "rust/cxx.h"

namespace verilated_rs {
rust::String product_version();
}
