// placeholder: the rooted family's tests
