// Placeholder: filled in with the distance_aware family.
#include <gtest/gtest.h>
