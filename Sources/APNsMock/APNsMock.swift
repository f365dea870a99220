public enum APNsMockModule {}
