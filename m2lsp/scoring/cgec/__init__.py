"""CGEC metrics of Lin et al.: sentence accuracy, char BLEU, meaning preservation."""
