// placeholder: the exchange family's tests
