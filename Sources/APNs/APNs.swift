public enum APNsModule {}
