print("otp-bench: being written")
