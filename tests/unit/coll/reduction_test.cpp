// placeholder: the reduction family's tests
