// Placeholder: filled in with the grouped family.
#include <gtest/gtest.h>
