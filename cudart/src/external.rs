//! External memory and semaphores.
