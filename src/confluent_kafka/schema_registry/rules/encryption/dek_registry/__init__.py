"""The DEK registry client (keys kept by the Schema Registry), and its ``mock://`` form."""
