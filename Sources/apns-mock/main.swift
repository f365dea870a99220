import APNsMock
print("apns-mock")
