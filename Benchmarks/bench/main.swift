// The benchmark harness entry point; sections are added as features land.
print("bench: no sections yet")
