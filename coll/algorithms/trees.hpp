// Tree patterns shared by the families' builders: who talks to whom, apart from any data. Trees are built over
// vranks, ranks relative to the root (vrank = (rank - root) mod p), so every root uses the same shapes.
#pragma once
#include <vector>

namespace strata::coll {

inline int relative(int rank, int root, int p) { return (rank - root + p) % p; }
inline int absolute(int vrank, int root, int p) { return (vrank + root) % p; }

// A node of the k-nomial tree over vranks [0, p) rooted at 0 (binomial: k = 2). A node's subtree is the vranks
// [vrank, vrank + span); a child's subtree is one contiguous run inside it, so a gather or scatter through the tree
// moves each subtree's blocks as one message.
struct Child {
  int vrank;
  int span;
};
struct TreeNode {
  int parent = -1;  // vrank, -1 at the root
  int span = 0;
  std::vector<Child> children;  // largest subtrees first: they have the most work left below them
};

TreeNode knomial_node(int vrank, int p, int k);

}  // namespace strata::coll
