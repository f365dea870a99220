import APNs
print("push-relay")
